import "./zodConfig";
import "@vscode/codicons/dist/codicon.css";
import "./styles.css";
import { createRoot } from "react-dom/client";
import { App } from "./App";
import { warmUpFirstAnswer } from "./lib/warmUp";

const container = document.getElementById("root");
if (container) {
  createRoot(container).render(<App />);
  warmUpFirstAnswer();
}
