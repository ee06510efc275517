package svc

import (
	"encoding/json"
	"maps"
	"slices"
)

// Limits of the used-field walk over response bodies.
const (
	// MaxUsedFieldDepth is the deepest nesting walked; deeper fields are left out.
	MaxUsedFieldDepth = 32
	// MaxUsedFieldsPerEndpoint is how many fields are collected per endpoint; the rest are left out.
	MaxUsedFieldsPerEndpoint = 2000
)

// collectUsedFields adds the fields of one response body to fields, as dot paths: every object key
// at every level (user, user.address, user.address.city), with [] marking array items (items[].id,
// or [].id for a body that is itself an array). Text bodies are parsed as JSON first.
func collectUsedFields(body any, fields map[string]struct{}) {
	var value any
	switch b := body.(type) {
	case nil:
		return
	case string:
		value = parseBodyText(b)
	case []byte:
		value = parseBodyText(string(b))
	case json.RawMessage:
		value = parseBodyText(string(b))
	case map[string]any, []any:
		value = b
	default:
		// Any other Go value is seen as the JSON it encodes to.
		encoded, err := json.Marshal(b)
		if err != nil {
			return
		}
		value = parseBodyText(string(encoded))
	}
	walkFields(value, "", 0, fields)
}

func walkFields(value any, prefix string, depth int, fields map[string]struct{}) {
	if depth >= MaxUsedFieldDepth || len(fields) >= MaxUsedFieldsPerEndpoint {
		return
	}
	switch v := value.(type) {
	case []any:
		for _, item := range v {
			walkFields(item, prefix+"[]", depth+1, fields)
		}
	case map[string]any:
		// Sorted, so that the fields kept at the limit are the same on every run.
		for _, key := range slices.Sorted(maps.Keys(v)) {
			if len(fields) >= MaxUsedFieldsPerEndpoint {
				return
			}
			child := v[key]
			path := key
			if prefix != "" {
				path = prefix + "." + key
			}
			fields[path] = struct{}{}
			walkFields(child, path, depth+1, fields)
		}
	}
}
