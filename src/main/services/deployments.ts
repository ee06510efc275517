/**
 * RecordDeployment, RecordUndeployment, ListDeployments (svc additions; docs/deploy-gate.md).
 * Recording answers refusals in the response (`success` false and a message), as RegisterConsumer
 * does; ListDeployments, whose response has no message, answers them as gRPC statuses.
 */
import { ErrorCode, SvcError } from '../../shared/errors';
import type { ContractValidatorHandlers, DeploymentInfo__Output } from '@svc/client/protocol';
import { actorOf } from '../auth/principal';
import type { DeploymentRecord } from '../storage/storage';
import { unary } from '../unary-handler';
import type { ServiceContext } from '../service-context';

export function createDeploymentHandlers(ctx: ServiceContext): Partial<ContractValidatorHandlers> {
  return {
    RecordDeployment: unary(ctx, 'RecordDeployment', async (request, call) => {
      try {
        const target = { schemaId: request.schema_id, environment: request.environment, consumerId: request.consumer_id };
        const { record, replacedVersion, environmentCreated } = await ctx.deployments.record(target, request.version, actorOf(call.metadata));
        if (environmentCreated) ctx.audit('environment_created', { environment: record.environment, origin: 'deployment' }, call);
        ctx.audit('deployment_recorded', {
          schemaId: record.schemaId, environment: record.environment, consumerId: record.consumerId || undefined,
          version: record.version, replacedVersion, schemaVersion: record.schemaVersion || undefined,
        }, call);
        const subject = record.consumerId === '' ? `${record.schemaId} ${record.version}` : `consumer ${record.consumerId} ${record.version} (tested against ${record.schemaId} ${record.schemaVersion})`;
        const replaced = replacedVersion === undefined ? '' : replacedVersion === record.version ? ' (again)' : ` (replacing ${replacedVersion})`;
        return {
          success: true,
          message: `Recorded ${subject} as deployed in ${record.environment}${replaced}`,
          deployment: toDeploymentInfo(record),
          replaced_version: replacedVersion ?? '',
        };
      } catch (error) {
        if (!(error instanceof SvcError) || error.code === ErrorCode.UNAVAILABLE) throw error;
        return { success: false, message: error.message, replaced_version: '' };
      }
    }),

    RecordUndeployment: unary(ctx, 'RecordUndeployment', async (request, call) => {
      try {
        const target = { schemaId: request.schema_id, environment: request.environment, consumerId: request.consumer_id };
        const record = await ctx.deployments.undeploy(target, actorOf(call.metadata));
        ctx.audit('undeployment_recorded', { schemaId: record.schemaId, environment: record.environment, consumerId: record.consumerId || undefined }, call);
        const subject = record.consumerId === '' ? record.schemaId : `consumer ${record.consumerId} of ${record.schemaId}`;
        return { success: true, message: `Recorded ${subject} as no longer deployed in ${record.environment}`, deployment: toDeploymentInfo(record) };
      } catch (error) {
        if (!(error instanceof SvcError) || error.code === ErrorCode.UNAVAILABLE) throw error;
        return { success: false, message: error.message };
      }
    }),

    ListDeployments: unary(ctx, 'ListDeployments', async (request) => {
      const { current, history } = await ctx.deployments.list(request.schema_id, request.environment, request.limit);
      return { current: current.map(toDeploymentInfo), history: history.map(toDeploymentInfo) };
    }),
  };
}

function toDeploymentInfo(record: DeploymentRecord): DeploymentInfo__Output {
  return {
    schema_id: record.schemaId,
    environment: record.environment,
    consumer_id: record.consumerId,
    version: record.version,
    action: record.action,
    recorded_at: record.recordedAt,
    recorded_by: record.recordedBy,
    schema_version: record.schemaVersion,
  };
}
