"""The check workflow: load or reuse a project, evaluate the rules, and shape the result.

``engine`` runs the pipeline (config → scan → parse → graph → rules) once; ``snapshot``
reuses an earlier result when nothing it read has changed; ``scoping``, ``change_set``,
``baseline`` and ``new_since`` narrow or extend what a check reports.
"""
