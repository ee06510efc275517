package svc_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	svc "github.com/svc-contracts/svc/clients/go"
)

// The shared conformance suite (clients/conformance/README.md): every case file runs against a
// real server, one subtest per case.

var conformanceDir = filepath.Join("..", "conformance")

type conformanceCase struct {
	Name   string `json:"name"`
	Server *struct {
		APIKeys []string `json:"apiKeys"`
	} `json:"server"`
	Client *struct {
		APIKey     string `json:"apiKey"`
		Address    string `json:"address"`
		DeadlineMs int    `json:"deadline_ms"`
	} `json:"client"`
	Steps []struct {
		Call   string         `json:"call"`
		Args   map[string]any `json:"args"`
		Expect map[string]any `json:"expect"`
	} `json:"steps"`
}

func TestConformance(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(conformanceDir, "cases", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no conformance cases under %s", conformanceDir)
	}
	sort.Strings(files)
	for _, file := range files {
		raw, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var c conformanceCase
		if err := json.Unmarshal(raw, &c); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		t.Run(c.Name, func(t *testing.T) { runConformanceCase(t, c) })
	}
}

func runConformanceCase(t *testing.T, c conformanceCase) {
	address := sharedServer.address
	if c.Server != nil && len(c.Server.APIKeys) > 0 {
		address = serverWithAPIKeys(t, c.Server.APIKeys).address
	}
	var options []svc.Option
	if c.Client != nil {
		if c.Client.Address == "down" {
			address = closedAddress(t)
		}
		if c.Client.APIKey != "" {
			options = append(options, svc.WithAPIKey(c.Client.APIKey))
		}
		if c.Client.DeadlineMs > 0 {
			options = append(options, svc.WithDeadline(time.Duration(c.Client.DeadlineMs)*time.Millisecond))
		}
	}
	client, err := svc.New(address, options...)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	for i, step := range c.Steps {
		actual, callErr := conformanceCall(t.Context(), client, step.Call, step.Args)
		expectation, _ := json.Marshal(step.Expect)
		switch {
		case step.Expect["result"] != nil || hasKey(step.Expect, "result"):
			if callErr != nil {
				t.Fatalf("step %d (%s): expected %s, got error %s: %s", i, step.Call, expectation, svc.Code(callErr), callErr)
			}
			if problem := matchValue(step.Expect["result"], normalize(actual), "result"); problem != "" {
				got, _ := json.Marshal(normalize(actual))
				t.Fatalf("step %d (%s): %s\nexpected %s\nactual   %s", i, step.Call, problem, expectation, got)
			}
		case hasKey(step.Expect, "error"):
			if callErr == nil {
				got, _ := json.Marshal(normalize(actual))
				t.Fatalf("step %d (%s): expected %s, got result %s", i, step.Call, expectation, got)
			}
			canonical := map[string]any{"code": svc.Code(callErr), "message": svc.Message(callErr)}
			if problem := matchValue(step.Expect["error"], canonical, "error"); problem != "" {
				t.Fatalf("step %d (%s): %s\nexpected %s\nactual   %v", i, step.Call, problem, expectation, canonical)
			}
		default:
			if callErr != nil {
				t.Fatalf("step %d (%s): expected success, got %s: %v", i, step.Call, svc.Code(callErr), callErr)
			}
		}
	}
}

func hasKey(m map[string]any, key string) bool {
	_, ok := m[key]
	return ok
}

// conformanceCall maps a case's snake_case call onto the client's method and returns the canonical result.
func conformanceCall(ctx context.Context, client *svc.Client, call string, args map[string]any) (any, error) {
	a := caseArgs(args)
	schema := []svc.CallOption{svc.ForSchema(a.text("schema_id"), a.text("schema_version"))}
	switch call {
	case "register_schema":
		document := filepath.Join(conformanceDir, "documents", a.text("document"))
		var registration svc.SchemaRegistration
		var err error
		if version := a.text("version"); version != "" {
			registration, err = client.RegisterSchemaWithVersion(ctx, a.text("schema_id"), document, version)
		} else {
			registration, err = client.RegisterSchema(ctx, a.text("schema_id"), document, nil)
		}
		return map[string]any{
			"message":          registration.Message,
			"metadata":         canonicalMetadata(&registration.Metadata),
			"breaking_changes": canonicalChanges(registration.BreakingChanges),
		}, err
	case "validate":
		interaction := toInteraction(args)
		result, err := client.Validate(ctx, interaction.Request, interaction.Response, schema...)
		return canonicalResult(result), err
	case "validate_many":
		var interactions []svc.Interaction
		for _, raw := range a.list("interactions") {
			interactions = append(interactions, toInteraction(raw.(map[string]any)))
		}
		results, err := client.ValidateMany(ctx, interactions, schema...)
		canonical := []any{}
		for _, result := range results {
			canonical = append(canonical, canonicalResult(result))
		}
		return canonical, err
	case "compare_schemas":
		result, err := client.CompareSchemas(ctx, a.text("schema_id"), a.text("old_version"), a.text("new_version"))
		return map[string]any{
			"compatible":       result.Compatible,
			"breaking_changes": canonicalChanges(result.BreakingChanges),
			"old_schema":       canonicalMetadata(result.OldSchema),
			"new_schema":       canonicalMetadata(result.NewSchema),
		}, err
	case "generate_fixture":
		fixture, err := client.GenerateFixture(ctx, a.text("method"), a.text("path"), a.generateOptions())
		return map[string]any{
			"request": map[string]any{
				"method": fixture.Request.Method, "path": fixture.Request.Path,
				"headers": fixture.Request.Header, "body": fixture.Request.Body,
			},
			"response": canonicalGeneratedResponse(fixture.Response),
		}, err
	case "generate_response":
		response, err := client.GenerateResponse(ctx, a.text("method"), a.text("path"), a.generateOptions())
		return canonicalGeneratedResponse(response), err
	case "generate_request_body":
		return client.GenerateRequestBody(ctx, a.text("method"), a.text("path"), a.generateOptions())
	case "list_endpoints":
		endpoints, err := client.ListEndpoints(ctx, schema...)
		canonical := []any{}
		for _, e := range endpoints {
			canonical = append(canonical, map[string]any{"method": e.Method, "path": e.Path, "operation_id": e.OperationID, "summary": e.Summary})
		}
		return canonical, err
	case "register_consumer":
		registration := svc.ConsumerRegistration{
			ConsumerID: a.text("consumer_id"), ConsumerVersion: a.text("consumer_version"),
			SchemaID: a.text("schema_id"), SchemaVersion: a.text("schema_version"), Environment: a.text("environment"),
		}
		for _, raw := range a.list("used_endpoints") {
			usage := caseArgs(raw.(map[string]any))
			var fields []string
			for _, field := range usage.list("used_fields") {
				fields = append(fields, field.(string))
			}
			registration.UsedEndpoints = append(registration.UsedEndpoints, svc.EndpointUsage{Method: usage.text("method"), Path: usage.text("path"), UsedFields: fields})
		}
		info, err := client.RegisterConsumer(ctx, registration)
		return canonicalConsumer(info), err
	case "list_consumers":
		consumers, err := client.ListConsumers(ctx, a.text("schema_id"), a.text("environment"))
		canonical := []any{}
		for _, consumer := range consumers {
			canonical = append(canonical, canonicalConsumer(consumer))
		}
		return canonical, err
	case "deregister_consumer":
		return nil, client.DeregisterConsumer(ctx, a.text("consumer_id"), a.text("schema_id"), a.text("environment"))
	case "can_i_deploy":
		result, err := client.CanIDeploy(ctx, a.text("schema_id"), a.text("new_version"), a.text("environment"))
		impacts := []any{}
		for _, impact := range result.AffectedConsumers {
			impacts = append(impacts, map[string]any{
				"consumer_id": impact.ConsumerID, "consumer_version": impact.ConsumerVersion,
				"current_schema_version": impact.CurrentSchemaVersion, "environment": impact.Environment,
				"will_break": impact.WillBreak, "relevant_changes": canonicalChanges(impact.RelevantChanges),
			})
		}
		return map[string]any{
			"safe_to_deploy": result.SafeToDeploy, "summary": result.Summary,
			"breaking_changes": canonicalChanges(result.BreakingChanges), "affected_consumers": impacts,
		}, err
	case "build_consumer_from_interactions", "register_consumer_from_interactions":
		var interactions []svc.Interaction
		for _, raw := range a.list("interactions") {
			interactions = append(interactions, toInteraction(raw.(map[string]any)))
		}
		configArgs := caseArgs(a.object("config"))
		config := svc.ConsumerConfig{
			ConsumerID: configArgs.text("consumer_id"), ConsumerVersion: configArgs.text("consumer_version"),
			Environment: configArgs.text("environment"), SchemaID: configArgs.text("schema_id"), SchemaVersion: configArgs.text("schema_version"),
		}
		if call == "register_consumer_from_interactions" {
			info, err := client.RegisterConsumerFromInteractions(ctx, interactions, config)
			return canonicalConsumer(info), err
		}
		registration, err := client.BuildConsumerFromInteractions(ctx, interactions, config)
		return map[string]any{
			"consumer_id": registration.ConsumerID, "consumer_version": registration.ConsumerVersion,
			"schema_id": registration.SchemaID, "schema_version": registration.SchemaVersion,
			"environment": registration.Environment, "used_endpoints": canonicalUsage(registration.UsedEndpoints),
		}, err
	default:
		return nil, fmt.Errorf("the conformance runner does not know the call %q", call)
	}
}

type caseArgs map[string]any

func (a caseArgs) text(key string) string {
	value, _ := a[key].(string)
	return value
}

func (a caseArgs) list(key string) []any {
	value, _ := a[key].([]any)
	return value
}

func (a caseArgs) object(key string) map[string]any {
	value, _ := a[key].(map[string]any)
	return value
}

func (a caseArgs) generateOptions() *svc.GenerateOptions {
	options := &svc.GenerateOptions{SchemaID: a.text("schema_id"), SchemaVersion: a.text("schema_version")}
	if code, ok := a["status_code"].(float64); ok {
		options.StatusCode = int(code)
	}
	if useExamples, ok := a["use_examples"].(bool); ok {
		options.IgnoreExamples = !useExamples
	}
	return options
}

func toInteraction(raw map[string]any) svc.Interaction {
	request := caseArgs(caseArgs(raw).object("request"))
	response := caseArgs(caseArgs(raw).object("response"))
	status, _ := response["status_code"].(float64)
	return svc.Interaction{
		Request:  svc.Request{Method: request.text("method"), Path: request.text("path"), Header: toHeader(request.object("headers")), Body: request["body"]},
		Response: svc.Response{StatusCode: int(status), Header: toHeader(response.object("headers")), Body: response["body"]},
	}
}

func toHeader(raw map[string]any) http.Header {
	header := http.Header{}
	for name, value := range raw {
		header[name] = []string{fmt.Sprint(value)}
	}
	return header
}

func canonicalResult(r svc.ValidationResult) map[string]any {
	return map[string]any{"valid": r.Valid, "errors": r.Errors, "validated_against_version": r.ValidatedAgainstVersion, "validated_against_hash": r.ValidatedAgainstHash}
}

func canonicalMetadata(m *svc.SchemaMetadata) any {
	if m == nil {
		return nil
	}
	var ownership any
	if o := m.Ownership; o != nil {
		ownership = map[string]any{"owner": o.Owner, "team": o.Team, "contact_email": o.ContactEmail, "read_only": o.ReadOnly}
	}
	return map[string]any{
		"schema_id": m.SchemaID, "schema_version": m.SchemaVersion, "schema_hash": m.SchemaHash,
		"registered_at": m.RegisteredAt, "updated_at": m.UpdatedAt, "ownership": ownership,
		"openapi_version": m.OpenAPIVersion, "endpoint_count": m.EndpointCount,
	}
}

func canonicalChanges(changes []svc.BreakingChange) []any {
	canonical := []any{}
	for _, c := range changes {
		canonical = append(canonical, map[string]any{"type": c.Type, "path": c.Path, "method": c.Method, "description": c.Description, "old_value": c.OldValue, "new_value": c.NewValue})
	}
	return canonical
}

func canonicalGeneratedResponse(r svc.GeneratedResponse) map[string]any {
	return map[string]any{"status_code": r.StatusCode, "headers": r.Header, "body": r.Body}
}

func canonicalUsage(usage []svc.EndpointUsage) []any {
	canonical := []any{}
	for _, u := range usage {
		canonical = append(canonical, map[string]any{"method": u.Method, "path": u.Path, "used_fields": u.UsedFields})
	}
	return canonical
}

func canonicalConsumer(c svc.ConsumerInfo) map[string]any {
	return map[string]any{
		"consumer_id": c.ConsumerID, "consumer_version": c.ConsumerVersion, "schema_id": c.SchemaID,
		"schema_version": c.SchemaVersion, "environment": c.Environment, "registered_at": c.RegisteredAt,
		"last_validated_at": c.LastValidatedAt, "used_endpoints": canonicalUsage(c.UsedEndpoints),
	}
}

// normalize turns a canonical value into what JSON decoding gives (float64 numbers, []any, map[string]any).
func normalize(value any) any {
	encoded, err := json.Marshal(value)
	if err != nil {
		panic(err)
	}
	var decoded any
	if err := json.Unmarshal(encoded, &decoded); err != nil {
		panic(err)
	}
	return decoded
}

// matchValue applies the README's matching rules; it returns "" on a match, else what differs and where.
func matchValue(expected, actual any, where string) string {
	switch e := expected.(type) {
	case map[string]any:
		for key := range e {
			if strings.HasPrefix(key, "$") && (len(e) != 1 || !knownOperators[key]) {
				return fmt.Sprintf("%s: malformed expectation %v (one known $ operator per object)", where, e)
			}
		}
		if operand, ok := e["$len"]; ok {
			list, isList := actual.([]any)
			if !isList || float64(len(list)) != operand.(float64) {
				return fmt.Sprintf("%s: expected an array of length %v", where, operand)
			}
			return ""
		}
		if operand, ok := e["$contains"]; ok {
			list, isList := actual.([]any)
			if !isList {
				return where + ": expected an array"
			}
			for i, wanted := range operand.([]any) {
				found := false
				for j, item := range list {
					if matchValue(wanted, item, fmt.Sprintf("%s[%d]", where, j)) == "" {
						found = true
						break
					}
				}
				if !found {
					return fmt.Sprintf("%s: no element matches $contains[%d]", where, i)
				}
			}
			return ""
		}
		if operand, ok := e["$match"]; ok {
			text, isText := actual.(string)
			if !isText || !regexp.MustCompile(operand.(string)).MatchString(text) {
				return fmt.Sprintf("%s: expected a string matching %q", where, operand)
			}
			return ""
		}
		if _, ok := e["$nonEmpty"]; ok {
			if isEmpty(actual) {
				return where + ": expected a non-empty value"
			}
			return ""
		}
		if _, ok := e["$absentOrEmpty"]; ok {
			if !isEmpty(actual) {
				return where + ": expected an absent or empty value"
			}
			return ""
		}
		object, isObject := actual.(map[string]any)
		if !isObject {
			return where + ": expected an object"
		}
		for key, wanted := range e {
			value, present := object[key]
			if !present {
				if operand, ok := wanted.(map[string]any); ok && operand["$absentOrEmpty"] != nil {
					continue
				}
				return fmt.Sprintf("%s.%s: missing", where, key)
			}
			if problem := matchValue(wanted, value, where+"."+key); problem != "" {
				return problem
			}
		}
		return ""
	case []any:
		list, isList := actual.([]any)
		if !isList || len(list) != len(e) {
			return fmt.Sprintf("%s: expected an array of length %d", where, len(e))
		}
		for i := range e {
			if problem := matchValue(e[i], list[i], fmt.Sprintf("%s[%d]", where, i)); problem != "" {
				return problem
			}
		}
		return ""
	default:
		if !reflect.DeepEqual(expected, actual) {
			return fmt.Sprintf("%s: expected %v", where, expected)
		}
		return ""
	}
}

var knownOperators = map[string]bool{"$len": true, "$contains": true, "$match": true, "$nonEmpty": true, "$absentOrEmpty": true}

func isEmpty(value any) bool {
	switch v := value.(type) {
	case nil:
		return true
	case string:
		return v == ""
	case float64:
		return v == 0
	case bool:
		return !v
	case []any:
		return len(v) == 0
	case map[string]any:
		return len(v) == 0
	}
	return false
}
