/**
 * RegisterConsumer, ListConsumers, DeregisterConsumer. Registration and removal answer their
 * failures in the response (`success` false and a message, as the spec's consumer operations do);
 * ListConsumers, whose response has no message, answers them as gRPC statuses.
 */
import { ErrorCode, SvcError } from '../../shared/errors';
import { LIMITS } from '../../shared/limits';
import { DEFAULT_CONSUMER_ENVIRONMENT, type ConsumerInfo__Output, type ContractValidatorHandlers, type RegisterConsumerRequest__Output } from '@svc/client/protocol';
import { actorOf, callerOf } from '../auth/principal';
import type { ConsumerRecord } from '../storage/storage';
import { unary } from '../unary-handler';
import type { ServiceContext } from '../service-context';

export function createConsumerHandlers(ctx: ServiceContext): Partial<ContractValidatorHandlers> {
  const log = ctx.logger.child({ caller: 'services/consumers' });
  return {
    RegisterConsumer: unary(ctx, 'RegisterConsumer', async (request, call) => {
      try {
        // A registration in an unknown environment would leave a gate that checks nothing (docs/deploy-gate.md).
        const environment = request.environment || DEFAULT_CONSUMER_ENVIRONMENT;
        await ctx.environments.require(environment, { create: false });
        // Created on first use (where unknown ones are allowed) only once the registration passed its checks.
        const beforeWrite = async () => {
          if (await ctx.environments.require(environment, { create: true, origin: 'consumer-registration', actor: actorOf(call.metadata) })) {
            ctx.audit('environment_created', { environment, origin: 'consumer-registration' }, call);
          }
        };
        const { outcome, record } = await ctx.consumers.register({ ...toRegisterInput(request, callerOf(call, ctx.trustedProxies)), gone: () => call.cancelled, beforeWrite });
        ctx.audit('consumer_registered', {
          consumerId: record.consumerId, consumerVersion: record.consumerVersion, schemaId: record.schemaId,
          schemaVersion: record.schemaVersion, environment: record.environment,
        }, call);
        const verb = outcome === 'created' ? 'registered' : 'updated';
        return {
          success: true,
          message: `Consumer ${record.consumerId} ${verb} for ${record.schemaId} version ${record.schemaVersion} in ${record.environment} (${endpointCount(record)})`,
          consumer: toConsumerInfo(record),
        };
      } catch (error) {
        if (!(error instanceof SvcError) || error.code === ErrorCode.UNAVAILABLE) throw error;
        log.info({ code: error.code, consumerId: request.consumer_id.slice(0, LIMITS.maxIdLength) }, `consumer registration refused: ${error.message}`);
        return { success: false, message: error.message };
      }
    }),

    ListConsumers: unary(ctx, 'ListConsumers', async (request) => {
      const records = await ctx.consumers.listForAnswer(request.schema_id, request.environment);
      return { consumers: records.map(toConsumerInfo) };
    }),

    DeregisterConsumer: unary(ctx, 'DeregisterConsumer', async (request, call) => {
      try {
        const key = await ctx.consumers.deregister(request.consumer_id, request.schema_id, request.environment);
        ctx.audit('consumer_deregistered', { ...key }, call);
        return { success: true, message: `Consumer ${key.consumerId} deregistered from ${key.schemaId} in ${key.environment}` };
      } catch (error) {
        if (!(error instanceof SvcError) || error.code === ErrorCode.UNAVAILABLE) throw error;
        return { success: false, message: error.message };
      }
    }),
  };
}

function toRegisterInput(request: RegisterConsumerRequest__Output, caller: string) {
  return {
    caller,
    consumerId: request.consumer_id,
    consumerVersion: request.consumer_version,
    schemaId: request.schema_id,
    schemaVersion: request.schema_version,
    environment: request.environment,
    usedEndpoints: request.used_endpoints.map((endpoint) => ({
      method: endpoint.method,
      path: endpoint.path,
      usedFields: endpoint.used_fields,
    })),
  };
}

export function toConsumerInfo(record: ConsumerRecord): ConsumerInfo__Output {
  return {
    consumer_id: record.consumerId,
    consumer_version: record.consumerVersion,
    schema_id: record.schemaId,
    schema_version: record.schemaVersion,
    environment: record.environment,
    registered_at: record.registeredAt,
    last_validated_at: record.lastValidatedAt,
    used_endpoints: record.usedEndpoints.map((endpoint) => ({ method: endpoint.method, path: endpoint.path, used_fields: endpoint.usedFields })),
  };
}

function endpointCount(record: ConsumerRecord): string {
  const count = record.usedEndpoints.length;
  return count === 1 ? '1 endpoint' : `${count} endpoints`;
}
