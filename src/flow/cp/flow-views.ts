import { FlowRun } from '../flow-run.entity';
import { Flow } from '../flow.entity';

/** How much of a run's inputs the runs log shows: a webhook body may be 1 MiB. */
const INPUTS_SHOWN = 4000;

export const WEBHOOK_PATH = '/core/flow/webhook';

/** A flow as the CP shows it: the secret only by its first characters. */
export function describeFlow(flow: Flow) {
  return {
    id: flow.id,
    name: flow.name,
    enabled: flow.enabled,
    actionCount: flow.actions.length,
    actionTypes: flow.actions.map((action) => action.type).join(', '),
    webhookHint: `${WEBHOOK_PATH}/${flow.secretHint}…`,
  };
}

/** The actions as the form's textarea shows them. */
export function actionsText(flow: Flow): string {
  return JSON.stringify(flow.actions, null, 2);
}

/** A run for the runs log: its inputs (cut short when long), outcome and each action's result. */
export function describeRun(run: FlowRun) {
  const inputs = JSON.stringify(run.inputs, null, 2);
  return {
    id: run.id,
    status: run.status,
    reason: run.reason,
    attempts: run.attempts,
    queuedAt: run.dateCreated,
    startedAt: run.startedAt,
    finishedAt: run.finishedAt,
    inputs:
      inputs.length > INPUTS_SHOWN
        ? `${inputs.slice(0, INPUTS_SHOWN)}\n… (${inputs.length - INPUTS_SHOWN} more characters)`
        : inputs,
    results: run.results,
    pending: run.actions.length - run.results.length,
  };
}
