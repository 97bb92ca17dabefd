"""Claude Code hooks: ``filid hook pre-tool-use|user-prompt-submit|session-start``.

Each reads Claude Code's hook payload (JSON on stdin) and answers with the JSON object the
hook protocol reads from stdout (see :mod:`filid.hook.answers`). The gate and the guard run
the engine's rules on the project as it would be after the edit (:mod:`filid.hook.after_edit`).
"""

from filid.hook.answers import pre_tool_use, session_start, user_prompt_submit
from filid.hook.payload import HookRequest, parse_request

__all__ = ["HookRequest", "parse_request", "pre_tool_use", "session_start", "user_prompt_submit"]
