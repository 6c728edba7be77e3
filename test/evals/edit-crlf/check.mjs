import { expect, original, read } from "../checks.mjs";

const before = original("config/settings.ini");
const after = read("config/settings.ini");
expect(/\r\n/.test(before), "the scenario's file lost its CRLF line endings (check git's autocrlf)");
expect(!/(^|[^\r])\n/.test(after), "a line ending was changed from CRLF to LF");
expect(
  after ===
    before.replace("[server]\r\nhost = 127.0.0.1\r\nport = 8080", "[server]\r\nhost = 127.0.0.1\r\nport = 9090"),
  "config/settings.ini is not the original with the server's port set to 9090",
);
