"""Fixes: plan every file operation, preview it as a diff, apply it transactionally, re-validate.

``plan_fixes`` (planner) turns violations into a :class:`~filid.fix.actions.FixPlan` of concrete
operations computed before any byte is written; ``preview_diff`` and ``apply_plan`` (apply)
show or perform it; ``run_fix`` (run) does the whole loop and re-validates.
"""

from __future__ import annotations
