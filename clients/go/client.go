package svc

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"github.com/svc-contracts/svc/clients/go/svcpb"
)

// Client is a connection to an svc server. It is safe for concurrent use; Close it when done.
type Client struct {
	conn     *grpc.ClientConn
	rpc      svcpb.ContractValidatorClient
	address  string
	deadline time.Duration
	closed   atomic.Bool

	mu            sync.RWMutex
	schemaID      string
	schemaVersion string
}

// New creates a client of the svc server at address (host:port, or any gRPC target such as
// dns:///svc:9550; "" means [DefaultAddress]). The connection is made lazily: a server that is down
// shows as UNAVAILABLE on the first call, not here.
func New(address string, options ...Option) (*Client, error) {
	if address == "" {
		address = DefaultAddress
	}
	resolved := clientOptions{deadline: DefaultDeadline}
	for _, option := range options {
		if err := option(&resolved); err != nil {
			return nil, err
		}
	}
	transport := insecure.NewCredentials()
	if resolved.tls != nil {
		transport = credentials.NewTLS(resolved.tls)
	}
	dialOptions := []grpc.DialOption{
		grpc.WithTransportCredentials(transport),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(MaxMessageBytes), grpc.MaxCallSendMsgSize(MaxMessageBytes)),
	}
	if resolved.apiKey != "" {
		key := resolved.apiKey
		dialOptions = append(dialOptions,
			grpc.WithUnaryInterceptor(func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
				return invoker(metadata.AppendToOutgoingContext(ctx, APIKeyMetadataKey, key), method, req, reply, cc, opts...)
			}),
			grpc.WithStreamInterceptor(func(ctx context.Context, desc *grpc.StreamDesc, cc *grpc.ClientConn, method string, streamer grpc.Streamer, opts ...grpc.CallOption) (grpc.ClientStream, error) {
				return streamer(metadata.AppendToOutgoingContext(ctx, APIKeyMetadataKey, key), desc, cc, method, opts...)
			}),
		)
	}
	conn, err := grpc.NewClient(address, append(dialOptions, resolved.dialOptions...)...)
	if err != nil {
		return nil, invalidUse("cannot create a client for %q: %v", address, err)
	}
	return &Client{
		conn:          conn,
		rpc:           svcpb.NewContractValidatorClient(conn),
		address:       address,
		deadline:      resolved.deadline,
		schemaID:      resolved.schemaID,
		schemaVersion: resolved.schemaVersion,
	}, nil
}

// Address is the server address the client talks to.
func (c *Client) Address() string { return c.address }

// Schema is the schema the client is bound to (by RegisterSchema or WithSchema); an empty version
// means the latest.
func (c *Client) Schema() (schemaID, version string) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.schemaID, c.schemaVersion
}

// Close closes the connection; it is idempotent. Later calls fail with FAILED_PRECONDITION.
func (c *Client) Close() error {
	if c.closed.Swap(true) {
		return nil
	}
	return c.conn.Close()
}

// CallOption selects the schema of one call.
type CallOption func(*callOptions)

type callOptions struct {
	schemaID      string
	schemaVersion string
}

// ForSchema validates against (or lists) schemaID at version instead of the bound schema; an empty
// version means the latest.
func ForSchema(schemaID, version string) CallOption {
	return func(o *callOptions) { o.schemaID, o.schemaVersion = schemaID, version }
}

// RegisterSchema registers the document at source (a file path, a file: URL or an http(s) URL;
// JSON or YAML) as schemaID and binds the client to it. opts may be nil.
func (c *Client) RegisterSchema(ctx context.Context, schemaID, source string, opts *RegisterSchemaOptions) (SchemaRegistration, error) {
	const op = "RegisterSchema"
	if opts == nil {
		opts = &RegisterSchemaOptions{}
	}
	if schemaID == "" {
		return SchemaRegistration{}, invalidUse("schemaID must not be empty")
	}
	ctx, cancel, err := c.callContext(ctx)
	if err != nil {
		return SchemaRegistration{}, err
	}
	defer cancel()
	content, err := readSchemaSource(ctx, source)
	if err != nil {
		return SchemaRegistration{}, err
	}
	request := &svcpb.RegisterSchemaRequest{
		SchemaId:           schemaID,
		SchemaContent:      content,
		SchemaVersion:      opts.Version,
		CheckCompatibility: opts.CheckCompatibility,
	}
	if o := opts.Ownership; o != nil {
		request.Ownership = &svcpb.SchemaOwnership{Owner: o.Owner, Team: o.Team, ContactEmail: o.ContactEmail, ReadOnly: o.ReadOnly}
	}
	response, err := c.rpc.RegisterSchema(ctx, request)
	if err != nil {
		return SchemaRegistration{}, opError(op, err)
	}
	if !response.GetSuccess() || response.GetMetadata() == nil {
		return SchemaRegistration{}, rejected(op, response.GetMessage())
	}
	metadata := toSchemaMetadata(response.GetMetadata())
	c.mu.Lock()
	c.schemaID, c.schemaVersion = metadata.SchemaID, metadata.SchemaVersion
	c.mu.Unlock()
	return SchemaRegistration{
		Message:         response.GetMessage(),
		Metadata:        metadata,
		BreakingChanges: toBreakingChanges(response.GetBreakingChanges()),
		Warnings:        toRegistrationWarnings(response.GetWarnings()),
	}, nil
}

// RegisterSchemaWithVersion registers source as the given semantic version of schemaID.
func (c *Client) RegisterSchemaWithVersion(ctx context.Context, schemaID, source, version string) (SchemaRegistration, error) {
	if version == "" {
		return SchemaRegistration{}, invalidUse("version must not be empty")
	}
	return c.RegisterSchema(ctx, schemaID, source, &RegisterSchemaOptions{Version: version})
}

// GetSchema returns a registered schema with its content; found is false when the schema (or the
// version; empty means the latest) is not registered.
func (c *Client) GetSchema(ctx context.Context, schemaID, version string) (schema SchemaContent, found bool, err error) {
	if schemaID == "" {
		return SchemaContent{}, false, invalidUse("schemaID must not be empty")
	}
	ctx, cancel, err := c.callContext(ctx)
	if err != nil {
		return SchemaContent{}, false, err
	}
	defer cancel()
	response, err := c.rpc.GetSchema(ctx, &svcpb.GetSchemaRequest{SchemaId: schemaID, SchemaVersion: version})
	if err != nil {
		return SchemaContent{}, false, opError("GetSchema", err)
	}
	if !response.GetFound() || response.GetMetadata() == nil {
		return SchemaContent{}, false, nil
	}
	return SchemaContent{Metadata: toSchemaMetadata(response.GetMetadata()), Content: response.GetSchemaContent()}, true, nil
}

// ListSchemas lists registered schemas, filtered and paged. opts may be nil.
func (c *Client) ListSchemas(ctx context.Context, opts *ListSchemasOptions) (SchemaPage, error) {
	if opts == nil {
		opts = &ListSchemasOptions{}
	}
	ctx, cancel, err := c.callContext(ctx)
	if err != nil {
		return SchemaPage{}, err
	}
	defer cancel()
	response, err := c.rpc.ListSchemas(ctx, &svcpb.ListSchemasRequest{
		PageSize: int32(opts.PageSize), PageToken: opts.PageToken, Owner: opts.Owner, Team: opts.Team,
	})
	if err != nil {
		return SchemaPage{}, opError("ListSchemas", err)
	}
	schemas := make([]SchemaMetadata, len(response.GetSchemas()))
	for i, m := range response.GetSchemas() {
		schemas[i] = toSchemaMetadata(m)
	}
	return SchemaPage{Schemas: schemas, NextPageToken: response.GetNextPageToken(), TotalCount: int(response.GetTotalCount())}, nil
}

// Validate checks a consumer's request and the response it received against the schema. A
// violation is a result with Valid false, not an error.
func (c *Client) Validate(ctx context.Context, request Request, response Response, opts ...CallOption) (ValidationResult, error) {
	message, err := c.interactionRequest(request, &response, opts)
	if err != nil {
		return ValidationResult{}, err
	}
	return c.validateInteraction(ctx, message)
}

// ValidateRequest checks a request alone, for example before a handler runs.
func (c *Client) ValidateRequest(ctx context.Context, request Request, opts ...CallOption) (ValidationResult, error) {
	message, err := c.interactionRequest(request, nil, opts)
	if err != nil {
		return ValidationResult{}, err
	}
	return c.validateInteraction(ctx, message)
}

// ValidateProducerResponse checks a producer's response alone (ValidateProducerResponse). request
// gives the method and the real path (its path parameters matter); its body is not checked.
func (c *Client) ValidateProducerResponse(ctx context.Context, request Request, response Response, opts ...CallOption) (ValidationResult, error) {
	const op = "ValidateProducerResponse"
	schemaID, version, err := c.resolveSchema(opts)
	if err != nil {
		return ValidationResult{}, err
	}
	requestData, err := toRequestData(request)
	if err != nil {
		return ValidationResult{}, err
	}
	responseData, err := toResponseData(response)
	if err != nil {
		return ValidationResult{}, err
	}
	ctx, cancel, err := c.callContext(ctx)
	if err != nil {
		return ValidationResult{}, err
	}
	defer cancel()
	result, err := c.rpc.ValidateProducerResponse(ctx, &svcpb.ValidateProducerRequest{
		SchemaId:      schemaID,
		SchemaVersion: version,
		Method:        requestData.Method,
		Path:          requestData.Path,
		Response:      responseData,
		Request:       requestData,
	})
	if err != nil {
		return ValidationResult{}, opError(op, err)
	}
	return toValidationResult(result), nil
}

// CompareSchemas reports the breaking changes between two versions of schemaID: an empty
// oldVersion means the previous version, an empty newVersion the latest.
func (c *Client) CompareSchemas(ctx context.Context, schemaID, oldVersion, newVersion string) (CompareResult, error) {
	const op = "CompareSchemas"
	if schemaID == "" {
		return CompareResult{}, invalidUse("schemaID must not be empty")
	}
	ctx, cancel, err := c.callContext(ctx)
	if err != nil {
		return CompareResult{}, err
	}
	defer cancel()
	response, err := c.rpc.CompareSchemas(ctx, &svcpb.CompareSchemasRequest{SchemaId: schemaID, OldVersion: oldVersion, NewVersion: newVersion})
	if err != nil {
		return CompareResult{}, opError(op, err)
	}
	// The server answers an impossible comparison (unknown schema or version) with a message and
	// no schemas.
	if response.GetMessage() != "" && response.GetOldSchema() == nil && response.GetNewSchema() == nil {
		return CompareResult{}, rejected(op, response.GetMessage())
	}
	return CompareResult{
		Compatible:      response.GetCompatible(),
		BreakingChanges: toBreakingChanges(response.GetBreakingChanges()),
		OldSchema:       toOptionalMetadata(response.GetOldSchema()),
		NewSchema:       toOptionalMetadata(response.GetNewSchema()),
	}, nil
}

// GenerateFixture generates a request and response for method and the path template path
// (/users/{id}), valid against the schema. opts may be nil.
func (c *Client) GenerateFixture(ctx context.Context, method, path string, opts *GenerateOptions) (GeneratedFixture, error) {
	response, err := c.generate(ctx, method, path, svcpb.OutputType_OUTPUT_FIXTURE, opts)
	if err != nil {
		return GeneratedFixture{}, err
	}
	fixture := response.GetFixture()
	if fixture.GetRequest() == nil || fixture.GetResponse() == nil {
		return GeneratedFixture{}, rejected("GenerateFixture", "the server sent no fixture")
	}
	return GeneratedFixture{Request: toGeneratedRequest(fixture.GetRequest()), Response: toGeneratedResponse(fixture.GetResponse())}, nil
}

// GenerateResponse generates a response for method and the path template path. opts may be nil.
func (c *Client) GenerateResponse(ctx context.Context, method, path string, opts *GenerateOptions) (GeneratedResponse, error) {
	response, err := c.generate(ctx, method, path, svcpb.OutputType_OUTPUT_RESPONSE, opts)
	if err != nil {
		return GeneratedResponse{}, err
	}
	if response.GetResponse() == nil {
		return GeneratedResponse{}, rejected("GenerateFixture", "the server sent no response")
	}
	return toGeneratedResponse(response.GetResponse()), nil
}

// GenerateRequestBody generates the request body of method and path, parsed from its JSON text
// (nil when the operation takes none). opts may be nil.
func (c *Client) GenerateRequestBody(ctx context.Context, method, path string, opts *GenerateOptions) (any, error) {
	response, err := c.generate(ctx, method, path, svcpb.OutputType_OUTPUT_REQUEST, opts)
	if err != nil {
		return nil, err
	}
	return parseBodyText(response.GetRequestBody()), nil
}

// ListEndpoints lists the operations of the bound schema (or the one of ForSchema).
func (c *Client) ListEndpoints(ctx context.Context, opts ...CallOption) ([]EndpointInfo, error) {
	schemaID, version, err := c.resolveSchema(opts)
	if err != nil {
		return nil, err
	}
	ctx, cancel, err := c.callContext(ctx)
	if err != nil {
		return nil, err
	}
	defer cancel()
	response, err := c.rpc.ListEndpoints(ctx, &svcpb.ListEndpointsRequest{SchemaId: schemaID, SchemaVersion: version})
	if err != nil {
		return nil, opError("ListEndpoints", err)
	}
	return toEndpointInfos(response.GetEndpoints()), nil
}

// RegisterConsumer records which endpoints and fields a consumer uses.
func (c *Client) RegisterConsumer(ctx context.Context, registration ConsumerRegistration) (ConsumerInfo, error) {
	const op = "RegisterConsumer"
	if registration.ConsumerID == "" {
		return ConsumerInfo{}, invalidUse("ConsumerID must not be empty")
	}
	if registration.SchemaID == "" {
		return ConsumerInfo{}, invalidUse("SchemaID must not be empty")
	}
	ctx, cancel, err := c.callContext(ctx)
	if err != nil {
		return ConsumerInfo{}, err
	}
	defer cancel()
	response, err := c.rpc.RegisterConsumer(ctx, &svcpb.RegisterConsumerRequest{
		ConsumerId:      registration.ConsumerID,
		ConsumerVersion: registration.ConsumerVersion,
		SchemaId:        registration.SchemaID,
		SchemaVersion:   registration.SchemaVersion,
		Environment:     registration.Environment,
		UsedEndpoints:   toEndpointUsageMessages(registration.UsedEndpoints),
	})
	if err != nil {
		return ConsumerInfo{}, opError(op, err)
	}
	if !response.GetSuccess() || response.GetConsumer() == nil {
		return ConsumerInfo{}, rejected(op, response.GetMessage())
	}
	return toConsumerInfo(response.GetConsumer()), nil
}

// ListConsumers lists the consumers of schemaID; an empty environment means all of them.
func (c *Client) ListConsumers(ctx context.Context, schemaID, environment string) ([]ConsumerInfo, error) {
	if schemaID == "" {
		return nil, invalidUse("schemaID must not be empty")
	}
	ctx, cancel, err := c.callContext(ctx)
	if err != nil {
		return nil, err
	}
	defer cancel()
	response, err := c.rpc.ListConsumers(ctx, &svcpb.ListConsumersRequest{SchemaId: schemaID, Environment: environment})
	if err != nil {
		return nil, opError("ListConsumers", err)
	}
	consumers := make([]ConsumerInfo, len(response.GetConsumers()))
	for i, m := range response.GetConsumers() {
		consumers[i] = toConsumerInfo(m)
	}
	return consumers, nil
}

// DeregisterConsumer removes the registration of consumerID for schemaID in environment (empty
// means dev).
func (c *Client) DeregisterConsumer(ctx context.Context, consumerID, schemaID, environment string) error {
	const op = "DeregisterConsumer"
	if consumerID == "" || schemaID == "" {
		return invalidUse("consumerID and schemaID must not be empty")
	}
	ctx, cancel, err := c.callContext(ctx)
	if err != nil {
		return err
	}
	defer cancel()
	response, err := c.rpc.DeregisterConsumer(ctx, &svcpb.DeregisterConsumerRequest{ConsumerId: consumerID, SchemaId: schemaID, Environment: environment})
	if err != nil {
		return opError(op, err)
	}
	if !response.GetSuccess() {
		return rejected(op, response.GetMessage())
	}
	return nil
}

// CanIDeploy tells whether newVersion of schemaID would break a consumer registered in
// environment (empty means prod).
func (c *Client) CanIDeploy(ctx context.Context, schemaID, newVersion, environment string) (CanIDeployResult, error) {
	if schemaID == "" || newVersion == "" {
		return CanIDeployResult{}, invalidUse("schemaID and newVersion must not be empty")
	}
	ctx, cancel, err := c.callContext(ctx)
	if err != nil {
		return CanIDeployResult{}, err
	}
	defer cancel()
	response, err := c.rpc.CanIDeploy(ctx, &svcpb.CanIDeployRequest{SchemaId: schemaID, NewVersion: newVersion, Environment: environment})
	if err != nil {
		return CanIDeployResult{}, opError("CanIDeploy", err)
	}
	return toCanIDeployResult(response), nil
}

func (c *Client) generate(ctx context.Context, method, path string, output svcpb.OutputType, opts *GenerateOptions) (*svcpb.GenerateFixtureResponse, error) {
	const op = "GenerateFixture"
	if opts == nil {
		opts = &GenerateOptions{}
	}
	if method == "" || path == "" {
		return nil, invalidUse("method and path must not be empty")
	}
	schemaID, version, err := c.resolveSchema([]CallOption{ForSchema(opts.SchemaID, opts.SchemaVersion)})
	if err != nil {
		return nil, err
	}
	ctx, cancel, err := c.callContext(ctx)
	if err != nil {
		return nil, err
	}
	defer cancel()
	response, err := c.rpc.GenerateFixture(ctx, &svcpb.GenerateFixtureRequest{
		SchemaId:      schemaID,
		SchemaVersion: version,
		Method:        upper(method),
		Path:          path,
		StatusCode:    int32(opts.StatusCode),
		UseExamples:   !opts.IgnoreExamples,
		ContentType:   opts.ContentType,
		OutputType:    output,
	})
	if err != nil {
		return nil, opError(op, err)
	}
	if !response.GetSuccess() {
		return nil, rejected(op, response.GetMessage())
	}
	return response, nil
}

func (c *Client) interactionRequest(request Request, response *Response, opts []CallOption) (*svcpb.InteractionRequest, error) {
	schemaID, version, err := c.resolveSchema(opts)
	if err != nil {
		return nil, err
	}
	requestData, err := toRequestData(request)
	if err != nil {
		return nil, err
	}
	message := &svcpb.InteractionRequest{SchemaId: schemaID, SchemaVersion: version, Request: requestData}
	if response != nil {
		if message.Response, err = toResponseData(*response); err != nil {
			return nil, err
		}
	}
	return message, nil
}

func (c *Client) validateInteraction(ctx context.Context, message *svcpb.InteractionRequest) (ValidationResult, error) {
	ctx, cancel, err := c.callContext(ctx)
	if err != nil {
		return ValidationResult{}, err
	}
	defer cancel()
	result, err := c.rpc.ValidateInteraction(ctx, message)
	if err != nil {
		return ValidationResult{}, opError("ValidateInteraction", err)
	}
	return toValidationResult(result), nil
}

// resolveSchema picks the schema of a call: ForSchema's, else the bound one (with the bound
// version only when it is the same schema).
func (c *Client) resolveSchema(opts []CallOption) (schemaID, version string, err error) {
	var selected callOptions
	for _, option := range opts {
		option(&selected)
	}
	boundID, boundVersion := c.Schema()
	if selected.schemaID == "" {
		selected.schemaID = boundID
	}
	if selected.schemaVersion == "" && selected.schemaID == boundID {
		selected.schemaVersion = boundVersion
	}
	if selected.schemaID == "" {
		return "", "", status.Error(codes.FailedPrecondition, "svc: no schema: call RegisterSchema first, or pass ForSchema")
	}
	return selected.schemaID, selected.schemaVersion, nil
}

// callContext bounds a call by the client's deadline (an earlier deadline of ctx wins).
func (c *Client) callContext(ctx context.Context) (context.Context, context.CancelFunc, error) {
	if c.closed.Load() {
		return nil, nil, status.Error(codes.FailedPrecondition, "svc: the client is closed")
	}
	ctx, cancel := context.WithTimeout(ctx, c.deadline)
	return ctx, cancel, nil
}

func upper(method string) string { return strings.ToUpper(method) }
