package svc

import (
	"regexp"
	"strconv"
	"strings"
)

// endpointMatcher maps a real request path (/users/123) to the path template of the schema it
// exercises (/users/{id}). When several templates match, the one with static segments earliest
// wins, as in the service's router: /users/me beats /users/{id} for the path /users/me.
//
// Paths sent through a server URL prefix (/v1/users/123 for a schema whose server is .../v1) match
// too: leading segments are dropped one at a time, fewest first, until a template matches.
type endpointMatcher struct {
	byMethodAndLength map[string][]compiledTemplate
}

// maxPrefixSegments is how many leading path segments are tried as an unknown server prefix.
const maxPrefixSegments = 4

// segmentRank orders template segments by specificity; higher ranks win.
type segmentRank int

const (
	rankParameter segmentRank = iota
	rankMixed
	rankStatic
)

type compiledSegment struct {
	rank    segmentRank
	literal string
	// pattern is set for a segment mixing text and parameters, such as {name}.{extension} or v{major}.
	pattern *regexp.Regexp
}

func (s compiledSegment) matches(segment string) bool {
	switch s.rank {
	case rankStatic:
		return segment == s.literal
	case rankParameter:
		return segment != ""
	default:
		return s.pattern.MatchString(segment)
	}
}

type compiledTemplate struct {
	endpoint EndpointInfo
	segments []compiledSegment
}

var (
	wholeParameter = regexp.MustCompile(`^\{[^{}]+\}$`)
	anyParameter   = regexp.MustCompile(`\{[^{}]+\}`)
)

func newEndpointMatcher(endpoints []EndpointInfo) *endpointMatcher {
	m := &endpointMatcher{byMethodAndLength: map[string][]compiledTemplate{}}
	for _, endpoint := range endpoints {
		parts := splitPath(endpoint.Path)
		segments := make([]compiledSegment, len(parts))
		for i, part := range parts {
			segments[i] = compileSegment(part)
		}
		key := matcherKey(endpoint.Method, len(segments))
		m.byMethodAndLength[key] = append(m.byMethodAndLength[key], compiledTemplate{endpoint: endpoint, segments: segments})
	}
	return m
}

func compileSegment(segment string) compiledSegment {
	if !strings.Contains(segment, "{") {
		return compiledSegment{rank: rankStatic, literal: segment}
	}
	if wholeParameter.MatchString(segment) {
		return compiledSegment{rank: rankParameter}
	}
	var source strings.Builder
	source.WriteString("^")
	last := 0
	for _, loc := range anyParameter.FindAllStringIndex(segment, -1) {
		source.WriteString(regexp.QuoteMeta(segment[last:loc[0]]))
		source.WriteString("[^/]+")
		last = loc[1]
	}
	source.WriteString(regexp.QuoteMeta(segment[last:]))
	source.WriteString("$")
	return compiledSegment{rank: rankMixed, pattern: regexp.MustCompile(source.String())}
}

// match returns the template that realPath (with or without a query string) exercises.
func (m *endpointMatcher) match(method, realPath string) (EndpointInfo, bool) {
	segments := splitPath(pathnameOf(realPath))
	maxDropped := min(maxPrefixSegments, max(0, len(segments)-1))
	for dropped := 0; dropped <= maxDropped; dropped++ {
		rest := segments[dropped:]
		if best, ok := bestMatch(m.byMethodAndLength[matcherKey(method, len(rest))], rest); ok {
			return best.endpoint, true
		}
	}
	return EndpointInfo{}, false
}

func bestMatch(candidates []compiledTemplate, segments []string) (compiledTemplate, bool) {
	var best compiledTemplate
	found := false
candidates:
	for _, candidate := range candidates {
		for i, segment := range candidate.segments {
			if !segment.matches(segments[i]) {
				continue candidates
			}
		}
		if !found || moreSpecific(candidate, best) {
			best, found = candidate, true
		}
	}
	return best, found
}

// moreSpecific: the first segment where the ranks differ decides.
func moreSpecific(a, b compiledTemplate) bool {
	for i := range a.segments {
		if a.segments[i].rank != b.segments[i].rank {
			return a.segments[i].rank > b.segments[i].rank
		}
	}
	return false
}

func matcherKey(method string, length int) string {
	return strings.ToUpper(method) + " " + strconv.Itoa(length)
}

// splitPath: /users/42/ → [users 42]; the root path is no segments.
func splitPath(path string) []string {
	path = strings.TrimPrefix(path, "/")
	path = strings.TrimSuffix(path, "/")
	if path == "" {
		return nil
	}
	return strings.Split(path, "/")
}

// pathnameOf is the path without query string or fragment.
func pathnameOf(path string) string {
	if end := strings.IndexAny(path, "?#"); end >= 0 {
		return path[:end]
	}
	return path
}
