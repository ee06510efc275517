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
      observed: impact.observed,
      replayed_interactions: impact.replayed_interactions,
      replay_failures: impact.replay_failures.map((failure) => ({
        method: failure.method, path: failure.path, status_code: failure.status_code, errors: failure.errors, recorded_at: Number(failure.recorded_at),
      })),
      unreached_changes: impact.unreached_changes.map((change) => changeToJson(fromProtoChange(change))),
      omitted_changes: impact.omitted_changes,
    })),
    replayed_interactions: answer.replayed_interactions,
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

  if (consumers.length === 0) lines.push('', noConsumersLine(question, answer.safe_to_deploy));
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
    `  ${impact.consumer_id} (${impact.observed ? 'observed in recorded traffic, not registered' : `version ${impact.consumer_version || 'unknown'}`})`,
    `    Schema version tested: ${impact.current_schema_version || 'unknown'}`,
    `    Impact: ${impact.will_break ? 'BREAKING' : 'None'}`,
  ];
  if (impact.will_break) {
    const endpoints = [...new Set([...impact.relevant_changes.map(endpointOf), ...impact.replay_failures.map((failure) => `${failure.method} ${failure.path}`)])];
    lines.push(`    Endpoints affected: ${endpoints.join(', ')}`);
    for (const change of impact.relevant_changes) lines.push(`    Reason: [${change.type}] ${change.description}`);
  }
  if (impact.omitted_changes > 0) lines.push(`    ${omittedText(impact.omitted_changes)}`);
  lines.push(...evidenceLines(impact));
  return lines;
}

/** Replay evidence and field-level decisions of one consumer (nothing when there is none). */
function evidenceLines(impact: ConsumerImpact__Output): string[] {
  const lines: string[] = [];
  if (impact.replayed_interactions > 0) {
    const failed = impact.replay_failures.length;
    lines.push(`    Replay: ${impact.replayed_interactions} recorded interaction${impact.replayed_interactions === 1 ? '' : 's'} replayed, ${failed === 0 ? 'all still valid' : `${failed} no longer valid`}`);
  }
  for (const failure of impact.replay_failures) {
    lines.push(`    Replay failure: ${failure.method} ${failure.path} → ${failure.status_code}: ${failure.errors[0] ?? 'invalid'}${failure.errors.length > 1 ? ` (+${failure.errors.length - 1} more)` : ''}`);
  }
  for (const change of impact.unreached_changes) {
    lines.push(`    Not relevant (no used field reaches it): [${change.type}] ${change.description}`);
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
    head.push(noConsumersLine(question, answer.safe_to_deploy));
    return `${head.join('\n')}\n`;
  }
  const rows = consumers.map((impact) => [
    impact.observed ? `${impact.consumer_id} (observed)` : impact.consumer_id,
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
  const replayed = impact.replayed_interactions > 0 ? `; replayed ${impact.replayed_interactions}, ${impact.replay_failures.length} failed` : '';
  const unreached = impact.unreached_changes.length > 0 ? `; ${impact.unreached_changes.length} change(s) not reached` : '';
  if (!impact.will_break) return replayed || unreached ? `-${replayed}${unreached}` : '-';
  const [failure] = impact.replay_failures;
  if (!first && failure) return `replay failed: ${failure.method} ${failure.path} ${failure.status_code}${replayed}${unreached}`;
  if (!first) return '-';
  const others = more.length + impact.omitted_changes;
  return `${first.type} ${endpointOf(first)}${others > 0 ? ` (+${others} more)` : ''}${replayed}${unreached}`;
}

/** The changes of a consumer the server's answer did not list (omitted_changes). */
function omittedText(count: number): string {
  return `… and ${count} more change${count === 1 ? '' : 's'} not listed in the answer (canIDeployChangesPerConsumer); the verdict counts them`;
}

function recommendation(question: DeployQuestion, safe: boolean, breaking: readonly ConsumerImpact__Output[]): string {
  if (safe) return `Recommendation: deploy ${question.version}; no registered consumer uses what changed.`;
  if (breaking.length === 0) return 'Recommendation: do not deploy until the reason above is resolved.';
  const names = breaking.map((impact) => impact.consumer_id).join(', ');
  return `Recommendation: do not deploy ${question.version} to ${question.environment}; update ${names} first, or keep the old behaviour alongside the new one.`;
}

/** With no consumers the answer is safe (nothing can break) unless the gate asked for consumers (`--fail-if-no-consumers`). */
function noConsumersLine(question: DeployQuestion, safe: boolean): string {
  const none = `No consumers are registered for ${question.schemaId} in ${question.environment}`;
  return safe ? `${none}: nothing can break.` : `${none}, and the gate requires at least one (--fail-if-no-consumers): not safe.`;
}
