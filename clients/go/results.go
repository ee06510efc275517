package svc

import "github.com/svc-contracts/svc/clients/go/svcpb"

// The service's messages → the client's result types.

func toValidationResult(m *svcpb.ValidationResult) ValidationResult {
	return ValidationResult{
		Valid:                   m.GetValid(),
		Errors:                  nonNil(m.GetErrors()),
		ValidatedAgainstVersion: m.GetValidatedAgainstVersion(),
		ValidatedAgainstHash:    m.GetValidatedAgainstHash(),
	}
}

func toSchemaMetadata(m *svcpb.SchemaMetadata) SchemaMetadata {
	metadata := SchemaMetadata{
		SchemaID:       m.GetSchemaId(),
		SchemaVersion:  m.GetSchemaVersion(),
		SchemaHash:     m.GetSchemaHash(),
		RegisteredAt:   m.GetRegisteredAt(),
		UpdatedAt:      m.GetUpdatedAt(),
		OpenAPIVersion: m.GetOpenapiVersion(),
		EndpointCount:  int(m.GetEndpointCount()),
	}
	if o := m.GetOwnership(); o != nil {
		metadata.Ownership = &SchemaOwnership{Owner: o.GetOwner(), Team: o.GetTeam(), ContactEmail: o.GetContactEmail(), ReadOnly: o.GetReadOnly()}
	}
	return metadata
}

func toOptionalMetadata(m *svcpb.SchemaMetadata) *SchemaMetadata {
	if m == nil {
		return nil
	}
	metadata := toSchemaMetadata(m)
	return &metadata
}

func toBreakingChanges(messages []*svcpb.BreakingChange) []BreakingChange {
	changes := make([]BreakingChange, len(messages))
	for i, m := range messages {
		changes[i] = BreakingChange{
			Type:        m.GetType().String(),
			Path:        m.GetPath(),
			Method:      m.GetMethod(),
			Description: m.GetDescription(),
			OldValue:    m.GetOldValue(),
			NewValue:    m.GetNewValue(),
		}
	}
	return changes
}

func toGeneratedRequest(m *svcpb.GeneratedRequest) GeneratedRequest {
	return GeneratedRequest{Method: m.GetMethod(), Path: m.GetPath(), Header: nonNilMap(m.GetHeaders()), Body: parseBodyText(m.GetBody()), RawBody: m.GetBody()}
}

func toGeneratedResponse(m *svcpb.GeneratedResponse) GeneratedResponse {
	return GeneratedResponse{StatusCode: int(m.GetStatusCode()), Header: nonNilMap(m.GetHeaders()), Body: parseBodyText(m.GetBody()), RawBody: m.GetBody()}
}

func toEndpointInfos(messages []*svcpb.EndpointInfo) []EndpointInfo {
	endpoints := make([]EndpointInfo, len(messages))
	for i, m := range messages {
		endpoints[i] = EndpointInfo{Method: m.GetMethod(), Path: m.GetPath(), OperationID: m.GetOperationId(), Summary: m.GetSummary()}
	}
	return endpoints
}

func toConsumerInfo(m *svcpb.ConsumerInfo) ConsumerInfo {
	usage := make([]EndpointUsage, len(m.GetUsedEndpoints()))
	for i, u := range m.GetUsedEndpoints() {
		usage[i] = EndpointUsage{Method: u.GetMethod(), Path: u.GetPath(), UsedFields: nonNil(u.GetUsedFields())}
	}
	return ConsumerInfo{
		ConsumerID:      m.GetConsumerId(),
		ConsumerVersion: m.GetConsumerVersion(),
		SchemaID:        m.GetSchemaId(),
		SchemaVersion:   m.GetSchemaVersion(),
		Environment:     m.GetEnvironment(),
		RegisteredAt:    m.GetRegisteredAt(),
		LastValidatedAt: m.GetLastValidatedAt(),
		UsedEndpoints:   usage,
	}
}

func toCanIDeployResult(m *svcpb.CanIDeployResponse) CanIDeployResult {
	impacts := make([]ConsumerImpact, len(m.GetAffectedConsumers()))
	for i, c := range m.GetAffectedConsumers() {
		impacts[i] = ConsumerImpact{
			ConsumerID:           c.GetConsumerId(),
			ConsumerVersion:      c.GetConsumerVersion(),
			CurrentSchemaVersion: c.GetCurrentSchemaVersion(),
			Environment:          c.GetEnvironment(),
			WillBreak:            c.GetWillBreak(),
			RelevantChanges:      toBreakingChanges(c.GetRelevantChanges()),
		}
	}
	return CanIDeployResult{
		SafeToDeploy:      m.GetSafeToDeploy(),
		Summary:           m.GetSummary(),
		BreakingChanges:   toBreakingChanges(m.GetBreakingChanges()),
		AffectedConsumers: impacts,
	}
}

func toEndpointUsageMessages(usage []EndpointUsage) []*svcpb.EndpointUsage {
	messages := make([]*svcpb.EndpointUsage, len(usage))
	for i, u := range usage {
		messages[i] = &svcpb.EndpointUsage{Method: upper(u.Method), Path: u.Path, UsedFields: append([]string(nil), u.UsedFields...)}
	}
	return messages
}

// nonNil keeps results comparable and JSON-friendly: an empty list is [] rather than nil.
func nonNil(values []string) []string {
	if values == nil {
		return []string{}
	}
	return values
}

func nonNilMap(values map[string]string) map[string]string {
	if values == nil {
		return map[string]string{}
	}
	return values
}

func toRegistrationWarnings(messages []*svcpb.RegistrationWarning) []RegistrationWarning {
	warnings := make([]RegistrationWarning, len(messages))
	for i, m := range messages {
		warnings[i] = RegistrationWarning{Code: m.GetCode(), Pointer: m.GetPointer(), Message: m.GetMessage()}
	}
	return warnings
}
