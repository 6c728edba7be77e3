/**
 * The id a request waits under in the window's one gate: the task's id and the core's call id,
 * as tasks running at once may be given the same call id by their models.
 */
export function approvalKey(request: { toolCallId: string; task?: { id: string } }): string {
  return request.task ? `${request.task.id}::${request.toolCallId}` : request.toolCallId;
}
