import type { NodeCommand, Refusal } from '@ledger/domain';

/** What RefusalRecorder writes for a refused node command. */
export const refusalRecord = (nodeId: string, command: NodeCommand, refusal: Refusal) => ({
  command: command.type,
  nodeId,
  token: 'token' in command ? command.token : null,
  consumer: 'consumer' in command ? { controller: command.consumer.controller, model: command.consumer.model } : null,
  ip: null,
  code: refusal.code,
  reason: refusal.message,
  details: refusal.details ?? null,
});
