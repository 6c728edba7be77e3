// Diff review: the approval gate, the editor-aware writer and the post-write diagnostics.
export { ReviewGate, type ReviewGateOptions, type ReviewChange, type ReviewSource } from "./reviewGate";
export { EditorAwareBackend, type EditorAwareBackendOptions } from "./editorAwareBackend";
export { editFeedbackMiddleware, errorsOf, type EditFeedbackOptions } from "./editFeedback";
export { registerReviewCommands, APPROVE_PROPOSAL_COMMAND, REJECT_PROPOSAL_COMMAND } from "./reviewCommands";
export { PROPOSAL_SCHEME } from "./proposedFileSystem";
