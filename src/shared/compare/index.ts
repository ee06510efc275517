export { compareDocuments } from './compare-documents';
export type { CompareOptions } from './compare-options';
export { BREAKING_CHANGE_TYPES, breakingChangeChars, breakingChangeTypeNumber, toBreakingChangeWire } from './breaking-change';
export type { BreakingChangeRecord, BreakingChangeType, BreakingChangeWire } from './breaking-change';
export { isChangeRelevantToEndpoint, changesRelevantToEndpoints, changeKey, endpointKeys } from './relevance';
export type { ChangeLocation, EndpointRef } from './relevance';
export { normalizePathTemplate, samePathTemplate } from './path-template';
