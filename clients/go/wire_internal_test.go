package svc

import (
	"bufio"
	"maps"
	"net/http"
	"strings"
	"testing"
)

// The header map sent to the service has lower-case names, and every value of a header given
// more than once (repeated, or under names that differ only in case) joined with ", " in the order
// net/http writes them: Set-Cookie and Link included.
func TestHeaderMapJoinsRepeatedHeadersAndNamesThatDifferInCase(t *testing.T) {
	t.Run("a request as net/http parses it", func(t *testing.T) {
		raw := "GET /users/42 HTTP/1.1\r\nHost: api.test\r\nX-Trace: a\r\nx-trace: b\r\n\r\n"
		parsed, err := http.ReadRequest(bufio.NewReader(strings.NewReader(raw)))
		if err != nil {
			t.Fatal(err)
		}
		request, err := toRequestData(Request{Method: parsed.Method, Path: parsed.URL.RequestURI(), Header: parsed.Header})
		if err != nil {
			t.Fatal(err)
		}
		assertHeaders(t, request.GetHeaders(), map[string]string{"x-trace": "a, b"})
	})

	t.Run("a request header map written directly", func(t *testing.T) {
		// Names sorted as net/http writes them: "X-Trace" before "x-trace".
		header := http.Header{"x-trace": {"b"}, "X-Trace": {"a"}, "Accept": {"application/json"}}
		for range 20 { // map iteration order is random: the old code kept one value, either one
			request, err := toRequestData(Request{Method: "GET", Path: "/users/42", Header: header})
			if err != nil {
				t.Fatal(err)
			}
			assertHeaders(t, request.GetHeaders(), map[string]string{"x-trace": "a, b", "accept": "application/json"})
		}
	})

	t.Run("a response with repeated Set-Cookie and Link, and a name set in two cases", func(t *testing.T) {
		header := http.Header{}
		header.Add("Set-Cookie", "a=1; Path=/")
		header.Add("Set-Cookie", "b=2; Path=/")
		header.Add("Link", "</users?page=2>; rel=next")
		header.Add("Link", "</users?page=1>; rel=prev")
		header.Set("X-Foo", "canonical")
		header["x-foo"] = []string{"lower"}
		header["x-empty"] = []string{}
		header.Set("Content-Type", "application/json")
		for range 20 {
			response, err := toResponseData(Response{StatusCode: 200, Header: header, Body: "{}"})
			if err != nil {
				t.Fatal(err)
			}
			assertHeaders(t, response.GetHeaders(), map[string]string{
				"set-cookie":   "a=1; Path=/, b=2; Path=/",
				"link":         "</users?page=2>; rel=next, </users?page=1>; rel=prev",
				"x-foo":        "canonical, lower",
				"x-empty":      "",
				"content-type": "application/json",
			})
		}
	})
}

func assertHeaders(t *testing.T, got, want map[string]string) {
	t.Helper()
	if !maps.Equal(got, want) {
		t.Fatalf("headers sent: %q, want %q", got, want)
	}
}
