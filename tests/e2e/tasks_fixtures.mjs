// What the tasks suites (tasks, tasks_cluster) expect of the demo's export_notes task tool.
export const TASKS = 'io.modelcontextprotocol/tasks';
export const RELATED_TASK = 'io.modelcontextprotocol/related-task';
// The 2026 client capabilities of a client that takes tasks and answers forms.
export const CAPS = { extensions: { [TASKS]: {} }, elicitation: { form: {} } };
export const EXPORTED = 'Exported 2 notes: shopping, welcome';
// What export_notes asks with confirm: true, and the answer that accepts it.
export const CONFIRM_REQUEST = {
    method: 'elicitation/create',
    params: {
        message: 'Export 2 notes?',
        requestedSchema: {
            type: 'object',
            properties: { confirm: { type: 'boolean', title: 'Export them?', default: true } },
            required: ['confirm'],
        },
    },
};
export const ACCEPT_CONFIRM = { confirm: { action: 'accept', content: { confirm: true } } };
