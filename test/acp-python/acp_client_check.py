"""Drives `fathom acp` with the Python ACP SDK's own client (agent-client-protocol), a client
no one at Fathom wrote. Usage: acp_client_check.py WORKSPACE AGENT_COMMAND [ARG...]

Over one connection: initialize, session/new, a prompt whose write is rejected, a prompt whose
write is allowed, a prompt for an unknown session, then stdin closes. Prints one JSON object of
what it saw (the test decides what is right); exits non-zero only when the SDK itself failed.
"""

import asyncio
import json
import os
import sys

from acp import PROTOCOL_VERSION, RequestError, text_block
from acp.schema import AllowedOutcome, ClientCapabilities, Implementation, RequestPermissionResponse
from acp.stdio import spawn_agent_process


class Recorder:
    """The client side: permission answers come from a queue of option ids; updates are kept."""

    def __init__(self, answers):
        self.answers = list(answers)
        self.permissions = []
        self.updates = []

    async def request_permission(self, session_id, tool_call, options, **kwargs):
        self.permissions.append(
            {
                "sessionId": session_id,
                "kind": tool_call.kind,
                "title": tool_call.title,
                "options": [o.option_id for o in options],
            }
        )
        return RequestPermissionResponse(outcome=AllowedOutcome(outcome="selected", option_id=self.answers.pop(0)))

    async def session_update(self, session_id, update, **kwargs):
        self.updates.append({"sessionId": session_id, **update.model_dump(mode="json", by_alias=True, exclude_none=True)})


async def main():
    workspace, command, *args = sys.argv[1:]
    client = Recorder(["reject_once", "allow_once"])
    seen = {}
    async with spawn_agent_process(client, command, *args, env=dict(os.environ)) as (conn, process):
        init = await conn.initialize(
            protocol_version=PROTOCOL_VERSION,
            client_capabilities=ClientCapabilities(),
            client_info=Implementation(name="acp-python-check", version="1"),
        )
        seen["initialize"] = init.model_dump(mode="json", by_alias=True, exclude_none=True)
        session = await conn.new_session(cwd=workspace, mcp_servers=[])
        seen["sessionId"] = session.session_id
        stops = []
        for text in ["Write notes.txt", "Write notes.txt again"]:
            answer = await conn.prompt(session_id=session.session_id, prompt=[text_block(text)])
            stops.append(answer.stop_reason)
            seen.setdefault("filesAfterPrompt", []).append(sorted(os.listdir(workspace)))
        seen["stopReasons"] = stops
        try:
            await conn.prompt(session_id="no-such-session", prompt=[text_block("hi")])
            seen["unknownSession"] = "no error"
        except RequestError as error:
            seen["unknownSession"] = {"code": error.code, "message": str(error), "data": error.data}
        process.stdin.close()
        seen["exitCode"] = await asyncio.wait_for(process.wait(), 20)
    seen["permissions"] = client.permissions
    seen["updates"] = client.updates
    print(json.dumps(seen))


asyncio.run(main())
