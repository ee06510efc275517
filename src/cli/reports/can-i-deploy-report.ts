/**
 * The answer of `svc can-i-deploy`: the spec's text block, and the JSON form whose keys are the
 * response's snake_case field names (`safe_to_deploy`, `affected_consumers`, `will_break`, ...).
 */
import type { CanIDeployResponse__Output, ConsumerImpact__Output } from '@svc/client/protocol';
import { changeToJson, countLine, endpointOf, fromProtoChange } from './breaking-changes';
import { formatTable } from './table';

export interface DeployQuestion {
  schemaId: string;
  version: string;
  environment: string;
}

export function canIDeployJson(question: DeployQuestion, answer: CanIDeployResponse__Output): object {
  return {
    schema_id: question.schemaId,
    new_version: question.version,
    environment: question.environment,
    safe_to_deploy: answer.safe_to_deploy,
    summary: answer.summary,
    breaking_changes: answer.breaking_changes.map((change) => changeToJson(fromProtoChange(change))),
    affected_consumers: answer.affected_consumers.map((impact) => ({
      consumer_id: impact.consumer_id,
      consumer_version: impact.consumer_version,
      current_schema_version: impact.current_schema_version,
      environment: impact.environment,
      will_break: impact.will_break,
      relevant_changes: impact.relevant_changes.map((change) => changeToJson(fromProtoChange(change))),
    })),
  };
}

export function canIDeployText(question: DeployQuestion, answer: CanIDeployResponse__Output): string {
  const consumers = answer.affected_consumers;
  const breaking = consumers.filter((impact) => impact.will_break);
  const lines = [
    `Schema:      ${question.schemaId}`,
    `Version:     ${question.version}`,
    `Environment: ${question.environment}`,
    '',
    verdictLine(question, answer.safe_to_deploy, breaking.length, consumers.length),
  ];
  if (answer.summary) lines.push(`Summary: ${answer.summary}`);

  if (consumers.length === 0) {
    lines.push('', `No consumers are registered for ${question.schemaId} in ${question.environment}: nothing can break.`);
  }
  if (!answer.safe_to_deploy && answer.breaking_changes.length > 0) {
    lines.push('', `Breaking changes (${answer.breaking_changes.length}):`);
    for (const change of answer.breaking_changes) {
      lines.push(`  ${change.type}: ${endpointOf(change)}`, `    ${change.description}`);
    }
  } else if (answer.breaking_changes.length > 0 && consumers.length > 0) {
    lines.push('', `Note: ${countLine(answer.breaking_changes.length).toLowerCase()}, none in an endpoint a consumer registered in ${question.environment} uses.`);
  }
  if (consumers.length > 0) {
    lines.push('', 'Consumers:');
    for (const impact of consumers) lines.push(...consumerLines(impact));
  }
  lines.push(
    '',
    `Safe consumers: ${consumers.length - breaking.length}/${consumers.length}`,
    `Affected consumers: ${breaking.length}/${consumers.length}`,
    '',
    recommendation(question, answer.safe_to_deploy, breaking),
  );
  return `${lines.join('\n')}\n`;
}

function verdictLine(question: DeployQuestion, safe: boolean, breakingCount: number, consumerCount: number): string {
  const target = `${question.schemaId} ${question.version} to ${question.environment}`;
  if (safe) return `Verdict: SAFE to deploy ${target}`;
  if (breakingCount === 0) return `Verdict: UNSAFE to deploy ${target}`;
  return `Verdict: UNSAFE to deploy ${target}: ${breakingCount} of ${consumerCount} consumer${consumerCount === 1 ? '' : 's'} would break`;
}

function consumerLines(impact: ConsumerImpact__Output): string[] {
  const lines = [
    `  ${impact.consumer_id} (version ${impact.consumer_version || 'unknown'})`,
    `    Schema version tested: ${impact.current_schema_version || 'unknown'}`,
    `    Impact: ${impact.will_break ? 'BREAKING' : 'None'}`,
  ];
  if (impact.will_break) {
    const endpoints = [...new Set(impact.relevant_changes.map(endpointOf))];
    lines.push(`    Endpoints affected: ${endpoints.join(', ')}`);
    for (const change of impact.relevant_changes) lines.push(`    Reason: [${change.type}] ${change.description}`);
  }
  return lines;
}

/**
 * The same answer as a table for a terminal: the verdict, then one row per consumer with its
 * impact and the reason (the first change that breaks it, and how many more).
 */
export function canIDeployTable(question: DeployQuestion, answer: CanIDeployResponse__Output): string {
  const consumers = answer.affected_consumers;
  const breaking = consumers.filter((impact) => impact.will_break);
  const head = [verdictLine(question, answer.safe_to_deploy, breaking.length, consumers.length)];
  if (answer.summary) head.push(`Summary: ${answer.summary}`);
  if (consumers.length === 0) {
    head.push(`No consumers are registered for ${question.schemaId} in ${question.environment}: nothing can break.`);
    return `${head.join('\n')}\n`;
  }
  const rows = consumers.map((impact) => [
    impact.consumer_id,
    impact.consumer_version || 'unknown',
    impact.current_schema_version || 'unknown',
    impact.will_break ? 'BREAKING' : 'None',
    reasonCell(impact),
  ]);
  const table = formatTable(['CONSUMER', 'VERSION', 'TESTED AGAINST', 'IMPACT', 'REASON'], rows);
  return `${head.join('\n')}\n\n${table}\n${recommendation(question, answer.safe_to_deploy, breaking)}\n`;
}

function reasonCell(impact: ConsumerImpact__Output): string {
  const [first, ...more] = impact.relevant_changes;
  if (!impact.will_break || !first) return '-';
  return `${first.type} ${endpointOf(first)}${more.length > 0 ? ` (+${more.length} more)` : ''}`;
}

function recommendation(question: DeployQuestion, safe: boolean, breaking: readonly ConsumerImpact__Output[]): string {
  if (safe) return `Recommendation: deploy ${question.version}; no registered consumer uses what changed.`;
  if (breaking.length === 0) return 'Recommendation: do not deploy until the reason above is resolved.';
  const names = breaking.map((impact) => impact.consumer_id).join(', ');
  return `Recommendation: do not deploy ${question.version} to ${question.environment}; update ${names} first, or keep the old behaviour alongside the new one.`;
}
