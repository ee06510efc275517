package svc

import (
	"context"
	"slices"
	"strings"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// DefaultConsumerEnvironment is the environment of a consumer registration that names none.
const DefaultConsumerEnvironment = "dev"

// BuildConsumerFromInteractions builds (without registering) the consumer registration that the
// interactions show: each real path mapped to the schema's template (via ListEndpoints) and the
// response fields seen gathered per endpoint, deduplicated and sorted, so the same traffic always
// gives the same registration. Interactions that match no endpoint of the schema are left out.
func (c *Client) BuildConsumerFromInteractions(ctx context.Context, interactions []Interaction, config ConsumerConfig) (ConsumerRegistration, error) {
	if config.ConsumerID == "" || config.ConsumerVersion == "" {
		return ConsumerRegistration{}, invalidUse("config.ConsumerID and config.ConsumerVersion must not be empty")
	}
	schemaID, version, err := c.resolveSchema([]CallOption{ForSchema(config.SchemaID, config.SchemaVersion)})
	if err != nil {
		return ConsumerRegistration{}, err
	}
	if version == "" {
		if version, err = c.latestVersion(ctx, schemaID); err != nil {
			return ConsumerRegistration{}, err
		}
	}
	endpoints, err := c.ListEndpoints(ctx, ForSchema(schemaID, version))
	if err != nil {
		return ConsumerRegistration{}, err
	}
	environment := config.Environment
	if environment == "" {
		environment = DefaultConsumerEnvironment
	}
	return ConsumerRegistration{
		ConsumerID:      config.ConsumerID,
		ConsumerVersion: config.ConsumerVersion,
		SchemaID:        schemaID,
		SchemaVersion:   version,
		Environment:     environment,
		UsedEndpoints:   usedEndpoints(interactions, endpoints),
	}, nil
}

// RegisterConsumerFromInteractions builds the registration the interactions show and registers it.
func (c *Client) RegisterConsumerFromInteractions(ctx context.Context, interactions []Interaction, config ConsumerConfig) (ConsumerInfo, error) {
	registration, err := c.BuildConsumerFromInteractions(ctx, interactions, config)
	if err != nil {
		return ConsumerInfo{}, err
	}
	return c.RegisterConsumer(ctx, registration)
}

// usedEndpoints is the pure part of the build: it needs the schema's endpoints, not a server.
func usedEndpoints(interactions []Interaction, endpoints []EndpointInfo) []EndpointUsage {
	matcher := newEndpointMatcher(endpoints)
	type usage struct {
		method, path string
		fields       map[string]struct{}
	}
	byEndpoint := map[string]*usage{}
	for _, interaction := range interactions {
		endpoint, ok := matcher.match(interaction.Request.Method, interaction.Request.Path)
		if !ok {
			continue
		}
		method := strings.ToUpper(endpoint.Method)
		key := method + " " + endpoint.Path
		entry := byEndpoint[key]
		if entry == nil {
			entry = &usage{method: method, path: endpoint.Path, fields: map[string]struct{}{}}
			byEndpoint[key] = entry
		}
		collectUsedFields(interaction.Response.Body, entry.fields)
	}
	result := make([]EndpointUsage, 0, len(byEndpoint))
	for _, entry := range byEndpoint {
		fields := make([]string, 0, len(entry.fields))
		for field := range entry.fields {
			fields = append(fields, field)
		}
		slices.Sort(fields)
		result = append(result, EndpointUsage{Method: entry.method, Path: entry.path, UsedFields: fields})
	}
	slices.SortFunc(result, func(a, b EndpointUsage) int {
		if c := strings.Compare(a.Path, b.Path); c != 0 {
			return c
		}
		return strings.Compare(a.Method, b.Method)
	})
	return result
}

func (c *Client) latestVersion(ctx context.Context, schemaID string) (string, error) {
	schema, found, err := c.GetSchema(ctx, schemaID, "")
	if err != nil {
		return "", err
	}
	if !found {
		return "", status.Errorf(codes.NotFound, "Schema not found: %s", schemaID)
	}
	return schema.Metadata.SchemaVersion, nil
}
