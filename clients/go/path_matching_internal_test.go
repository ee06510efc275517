package svc

import "testing"

func TestPathPatterns(t *testing.T) {
	tests := []struct {
		pattern string
		path    string
		want    bool
	}{
		{"/users/*", "/users/42", true},
		{"/users/*", "/users/42/posts", false},
		{"/users/*", "/users/", true},
		{"/api/**", "/api", true},
		{"/api/**", "/api/a/b/c", true},
		{"/api/**", "/apis", false},
		{"/api/**/edit", "/api/a/b/edit", true},
		{"/health", "/health/", true},
		{"/v1.0/*", "/v1x0/a", false},
		{"/files/*.json", "/files/a.json", true},
	}
	for _, test := range tests {
		t.Run(test.pattern+" "+test.path, func(t *testing.T) {
			patterns, err := compilePathPatterns("IncludePaths", []string{test.pattern})
			if err != nil {
				t.Fatal(err)
			}
			if got := patterns.matches(test.path); got != test.want {
				t.Fatalf("got %v", got)
			}
		})
	}
}

func TestEndpointMatcher(t *testing.T) {
	matcher := newEndpointMatcher([]EndpointInfo{
		{Method: "GET", Path: "/users/{id}"},
		{Method: "GET", Path: "/users/me"},
		{Method: "GET", Path: "/files/{name}.{extension}"},
		{Method: "GET", Path: "/"},
		{Method: "POST", Path: "/users"},
	})
	tests := []struct {
		method, path, want string
	}{
		{"GET", "/users/42", "/users/{id}"},
		{"get", "/users/me?x=1", "/users/me"},
		{"GET", "/v1/users/42", "/users/{id}"},
		{"GET", "/files/report.pdf", "/files/{name}.{extension}"},
		{"GET", "/", "/"},
		{"POST", "/users/", "/users"},
		{"DELETE", "/users/42", ""},
		{"GET", "/a/b/c/d/e/users/42", ""},
	}
	for _, test := range tests {
		endpoint, ok := matcher.match(test.method, test.path)
		if got := endpoint.Path; (ok && got != test.want) || (!ok && test.want != "") {
			t.Errorf("%s %s: got %q (%v), want %q", test.method, test.path, got, ok, test.want)
		}
	}
}

func TestUsedFields(t *testing.T) {
	fields := map[string]struct{}{}
	collectUsedFields(`{"items":[{"id":1,"tags":["a"]},{"name":"x"}],"next":null}`, fields)
	collectUsedFields([]any{map[string]any{"id": 1}}, fields)
	collectUsedFields("not json", fields)
	want := []string{"[].id", "items", "items[].id", "items[].name", "items[].tags", "next"}
	if len(fields) != len(want) {
		t.Fatalf("got %v", fields)
	}
	for _, field := range want {
		if _, ok := fields[field]; !ok {
			t.Fatalf("missing %s in %v", field, fields)
		}
	}
}
