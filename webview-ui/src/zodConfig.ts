import { z } from "zod";

// The webview's CSP forbids eval. Tell zod before any schema is built (this module is imported
// first): it then neither probes with `new Function` (a caught probe is still reported as a CSP
// violation) nor compiles validators.
z.config({ jitless: true });
