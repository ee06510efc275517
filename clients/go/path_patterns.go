package svc

import (
	"fmt"
	"regexp"
	"strings"
)

// pathPatterns is a compiled list of IncludePaths or ExcludePaths: "*" matches within one segment
// (/users/*), "**" matches any number of segments, none included (/api/** matches /api and
// /api/a/b). Everything else is literal. Patterns match the path without its query string, and a
// trailing slash is not significant.
type pathPatterns []*regexp.Regexp

func compilePathPatterns(option string, patterns []string) (pathPatterns, error) {
	if patterns == nil {
		return nil, nil
	}
	compiled := make(pathPatterns, len(patterns))
	for i, pattern := range patterns {
		if !strings.HasPrefix(pattern, "/") {
			return nil, fmt.Errorf("svc: %s[%d] must be a path pattern starting with \"/\" (got %q)", option, i, pattern)
		}
		compiled[i] = compilePathPattern(pattern)
	}
	return compiled, nil
}

func compilePathPattern(pattern string) *regexp.Regexp {
	var source strings.Builder
	source.WriteString("^")
	for i := 0; i < len(pattern); i++ {
		switch {
		case strings.HasPrefix(pattern[i:], "/**") && (i+3 == len(pattern) || pattern[i+3] == '/'):
			source.WriteString("(?:/.*)?") // "/**": any number of segments, or none
			i += 2
		case pattern[i] == '*':
			source.WriteString("[^/]*")
		default:
			source.WriteString(regexp.QuoteMeta(pattern[i : i+1]))
		}
	}
	source.WriteString("/?$")
	return regexp.MustCompile(source.String())
}

// matches reports whether any pattern matches pathname.
func (p pathPatterns) matches(pathname string) bool {
	for _, pattern := range p {
		if pattern.MatchString(pathname) {
			return true
		}
	}
	return false
}
