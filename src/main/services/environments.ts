/**
 * CreateEnvironment, ListEnvironments, DeleteEnvironment (svc additions; docs/deploy-gate.md).
 * Creation and deletion answer refusals in the response (`success` false and a message), as the
 * consumer operations do.
 */
import { ErrorCode, SvcError } from '../../shared/errors';
import type { ContractValidatorHandlers, EnvironmentInfo__Output } from '@svc/client/protocol';
import { actorOf } from '../auth/principal';
import type { EnvironmentView } from '../registry/environment-registry';
import { unary } from '../unary-handler';
import type { ServiceContext } from '../service-context';

export function createEnvironmentHandlers(ctx: ServiceContext): Partial<ContractValidatorHandlers> {
  return {
    CreateEnvironment: unary(ctx, 'CreateEnvironment', async (request, call) => {
      try {
        const { created, environment } = await ctx.environments.create(request.name, request.description, actorOf(call.metadata));
        if (created) ctx.audit('environment_created', { environment: environment.name, origin: 'created' }, call);
        return {
          success: true,
          message: created ? `Environment ${environment.name} created` : `Environment ${environment.name} already exists`,
          environment: toEnvironmentInfo(environment),
        };
      } catch (error) {
        if (!(error instanceof SvcError) || error.code === ErrorCode.UNAVAILABLE) throw error;
        return { success: false, message: error.message };
      }
    }),

    ListEnvironments: unary(ctx, 'ListEnvironments', async () => ({
      environments: (await ctx.environments.list()).map(toEnvironmentInfo),
    })),

    DeleteEnvironment: unary(ctx, 'DeleteEnvironment', async (request, call) => {
      try {
        await ctx.environments.delete(request.name);
        ctx.audit('environment_deleted', { environment: request.name }, call);
        return { success: true, message: `Environment ${request.name} deleted` };
      } catch (error) {
        if (!(error instanceof SvcError) || error.code === ErrorCode.UNAVAILABLE) throw error;
        return { success: false, message: error.message };
      }
    }),
  };
}

function toEnvironmentInfo(view: EnvironmentView): EnvironmentInfo__Output {
  return { name: view.name, description: view.description, built_in: view.builtIn, created_at: view.createdAt, origin: view.origin };
}
