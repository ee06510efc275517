package svc

import "net/http"

// Request is an HTTP request as handed to the validator.
type Request struct {
	// Method is GET, POST, ... in any case.
	Method string
	// Path is the real path with actual values and an optional query string: /users/42?expand=posts.
	Path   string
	Header http.Header
	// Body is sent as it is when it is a string, []byte or json.RawMessage (already encoded);
	// any other value is JSON-encoded once (and implies Content-Type: application/json); nil means
	// no body.
	Body any
}

// Response is an HTTP response as handed to the validator. Body follows the rules of Request.Body.
type Response struct {
	StatusCode int
	Header     http.Header
	Body       any
}

// Interaction is one request and its response, for ValidateMany and consumer registrations.
type Interaction struct {
	Request  Request
	Response Response
	// Validation is set when a [Capture] validated the interaction (AutoValidate).
	Validation *ValidationResult
}

// ValidationResult is the outcome of a validation: a violation is Valid false with Errors, never
// an error value.
type ValidationResult struct {
	Valid                   bool
	Errors                  []string
	ValidatedAgainstVersion string
	ValidatedAgainstHash    string
}

// SchemaOwnership says who owns a schema; ReadOnly schemas refuse updates.
type SchemaOwnership struct {
	Owner        string
	Team         string
	ContactEmail string
	ReadOnly     bool
}

// SchemaMetadata describes one registered schema version. Timestamps are Unix seconds.
type SchemaMetadata struct {
	SchemaID      string
	SchemaVersion string
	// SchemaHash is the SHA-256 of the registered content.
	SchemaHash   string
	RegisteredAt int64
	UpdatedAt    int64
	Ownership    *SchemaOwnership
	// OpenAPIVersion is the detected version (a v2 document reports 3.0.0, its converted form).
	OpenAPIVersion string
	EndpointCount  int
}

// SchemaRegistration is the answer to RegisterSchema.
type SchemaRegistration struct {
	Message  string
	Metadata SchemaMetadata
	// BreakingChanges is filled when the registration asked for a compatibility check.
	BreakingChanges []BreakingChange
	// Warnings are the leniencies of the registration (a keyword ignored, a pattern not enforced, a
	// version assigned).
	Warnings []RegistrationWarning
}

// RegistrationWarning is one leniency of a registration.
type RegistrationWarning struct {
	// Code identifies the kind of warning, such as PATTERN_NOT_ENFORCED.
	Code string
	// Pointer is a JSON pointer into the registered document; empty when the warning is about the
	// request itself.
	Pointer string
	Message string
}

// SchemaContent is a registered schema with its content exactly as registered.
type SchemaContent struct {
	Metadata SchemaMetadata
	Content  string
}

// SchemaPage is one page of ListSchemas.
type SchemaPage struct {
	Schemas []SchemaMetadata
	// NextPageToken fetches the next page; empty on the last one.
	NextPageToken string
	TotalCount    int
}

// BreakingChange is one incompatible difference between two schema versions.
type BreakingChange struct {
	// Type is the change kind's name: ENDPOINT_REMOVED, REQUIRED_FIELD_ADDED, TYPE_CHANGED,
	// REQUIRED_PARAMETER_ADDED, RESPONSE_SCHEMA_CHANGED or ENUM_VALUE_REMOVED.
	Type string
	// Path is the API path template (/users/{id}); empty when the change is not tied to a path.
	Path        string
	Method      string
	Description string
	OldValue    string
	NewValue    string
}

// CompareResult is the answer to CompareSchemas.
type CompareResult struct {
	Compatible      bool
	BreakingChanges []BreakingChange
	OldSchema       *SchemaMetadata
	NewSchema       *SchemaMetadata
}

// GeneratedRequest is a generated request; Body is the parsed JSON (nil when there is none).
type GeneratedRequest struct {
	Method string
	Path   string
	Header map[string]string
	Body   any
	// RawBody is the body text exactly as generated.
	RawBody string
}

// GeneratedResponse is a generated response; Body is the parsed JSON (nil when there is none).
type GeneratedResponse struct {
	StatusCode int
	Header     map[string]string
	Body       any
	RawBody    string
}

// GeneratedFixture is a request and a response valid against the schema.
type GeneratedFixture struct {
	Request  GeneratedRequest
	Response GeneratedResponse
}

// EndpointInfo is one operation of a schema.
type EndpointInfo struct {
	Method string
	// Path is the template as written in the schema: /users/{id}.
	Path        string
	OperationID string
	Summary     string
}

// EndpointUsage is what a consumer uses of one endpoint.
type EndpointUsage struct {
	Method string
	// Path is the API path template.
	Path string
	// UsedFields are the response fields read, as dot paths with [] for array items (items[].id).
	UsedFields []string
}

// ConsumerRegistration is what RegisterConsumer records.
type ConsumerRegistration struct {
	ConsumerID      string
	ConsumerVersion string
	SchemaID        string
	SchemaVersion   string
	// Environment defaults to dev on the server.
	Environment   string
	UsedEndpoints []EndpointUsage
}

// ConsumerInfo is a consumer registration as the server keeps it. Timestamps are Unix seconds.
type ConsumerInfo struct {
	ConsumerID      string
	ConsumerVersion string
	SchemaID        string
	SchemaVersion   string
	Environment     string
	RegisteredAt    int64
	LastValidatedAt int64
	UsedEndpoints   []EndpointUsage
}

// ConsumerImpact tells whether a schema change breaks one consumer.
type ConsumerImpact struct {
	ConsumerID      string
	ConsumerVersion string
	// CurrentSchemaVersion is the version the consumer was registered against.
	CurrentSchemaVersion string
	Environment          string
	WillBreak            bool
	RelevantChanges      []BreakingChange
}

// CanIDeployResult is the answer to CanIDeploy.
type CanIDeployResult struct {
	SafeToDeploy      bool
	Summary           string
	BreakingChanges   []BreakingChange
	AffectedConsumers []ConsumerImpact
}

// ConsumerConfig names the consumer that captured interactions are registered for.
type ConsumerConfig struct {
	ConsumerID      string
	ConsumerVersion string
	// Environment defaults to dev.
	Environment string
	// SchemaID defaults to the schema the client is bound to.
	SchemaID string
	// SchemaVersion defaults to the bound version, else the latest registered one.
	SchemaVersion string
}

// GenerateOptions tune GenerateFixture, GenerateResponse and GenerateRequestBody.
type GenerateOptions struct {
	// SchemaID and SchemaVersion default to the bound schema (latest version when unbound).
	SchemaID      string
	SchemaVersion string
	// StatusCode is the response status to generate; 0 means the operation's first success status.
	StatusCode int
	// IgnoreExamples generates values from the schemas even where valid examples exist.
	IgnoreExamples bool
	// ContentType defaults to application/json.
	ContentType string
}

// RegisterSchemaOptions tune RegisterSchema.
type RegisterSchemaOptions struct {
	// Version is a semantic version; empty takes the document's info.version.
	Version   string
	Ownership *SchemaOwnership
	// CheckCompatibility reports breaking changes against the previous version (the schema is
	// registered anyway).
	CheckCompatibility bool
}

// ListSchemasOptions filter and page ListSchemas.
type ListSchemasOptions struct {
	PageSize  int
	PageToken string
	Owner     string
	Team      string
}
