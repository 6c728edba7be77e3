/** A scripted CodeIntelligence for the code intelligence tools' tests: answers from tables, records what it was asked. */
import type {
  Answer,
  CodeIntelligence,
  CodeLocation,
  CodePosition,
  CodeSymbol,
  RenameEdits,
} from "../../../src/core/codeIntel/codeIntelligence";
import type { ProblemEntry } from "../../../src/core/codeIntel/problems";

export interface FakeIntelScript {
  definitions?: Answer<CodeLocation[]>;
  references?: Answer<CodeLocation[]>;
  symbols?: Record<string, CodeSymbol[]>;
  workspaceSymbols?: Answer<CodeSymbol[]>;
  hover?: Answer<string[]>;
  rename?: Answer<RenameEdits>;
  problems?: ProblemEntry[];
}

export class FakeIntel implements CodeIntelligence {
  readonly label = "The fake language server";
  readonly asked: { method: string; at?: CodePosition; path?: string; query?: string; newName?: string }[] = [];

  constructor(private readonly script: FakeIntelScript = {}) {}

  async definitions(at: CodePosition) {
    this.asked.push({ method: "definitions", at });
    return this.script.definitions ?? [];
  }
  async references(at: CodePosition) {
    this.asked.push({ method: "references", at });
    return this.script.references ?? [];
  }
  async documentSymbols(path: string) {
    this.asked.push({ method: "documentSymbols", path });
    return this.script.symbols?.[path] ?? [];
  }
  async workspaceSymbols(query: string) {
    this.asked.push({ method: "workspaceSymbols", query });
    return this.script.workspaceSymbols ?? [];
  }
  async hover(at: CodePosition) {
    this.asked.push({ method: "hover", at });
    return this.script.hover ?? [];
  }
  async rename(at: CodePosition, newName: string) {
    this.asked.push({ method: "rename", at, newName });
    return this.script.rename ?? { files: [] };
  }
  async problems() {
    this.asked.push({ method: "problems" });
    return this.script.problems ?? [];
  }
}
