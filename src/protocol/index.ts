export * from "./parse";
export * from "./chat";
export * from "./chatMessages";
export * from "./models";
export * from "./parallel";
export * from "./attachments";
export * from "./teamFiles";
export * from "./memories";
