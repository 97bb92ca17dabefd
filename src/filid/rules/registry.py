"""The explicit rule registry: one tuple, typed with the ``Rule`` protocol."""

from __future__ import annotations

from filid.rules import catalogue
from filid.rules.base import Rule
from filid.rules.circular_dependency import CircularDependency
from filid.rules.detail_document_contract import DetailDocumentContract
from filid.rules.entry_point_surface import EntryPointSurface
from filid.rules.external_import_boundary import ExternalImportBoundary
from filid.rules.hybrid_node import HybridNode
from filid.rules.index_barrel_pattern import IndexBarrelPattern
from filid.rules.intent_document_contract import IntentDocumentContract
from filid.rules.legacy_criteria_ledger import LegacyCriteriaLedger
from filid.rules.max_depth import MaxDepth
from filid.rules.module_entry_point import ModuleEntryPoint
from filid.rules.naming_convention import NamingConvention
from filid.rules.organ_no_claudemd import OrganNoClaudemd
from filid.rules.pure_function_isolation import PureFunctionIsolation
from filid.rules.spec_contract_link import SpecContractLink
from filid.rules.spec_document_case_cap import SpecDocumentCaseCap
from filid.rules.spec_fragmentation import SpecFragmentation
from filid.rules.test_record_case_cap import TestRecordCaseCap
from filid.rules.zero_peer_file import ZeroPeerFile

RULES: tuple[Rule, ...] = (
    NamingConvention(),
    OrganNoClaudemd(),
    IndexBarrelPattern(),
    ModuleEntryPoint(),
    MaxDepth(),
    CircularDependency(),
    PureFunctionIsolation(),
    ZeroPeerFile(),
    ExternalImportBoundary(),
    IntentDocumentContract(),
    HybridNode(),
    DetailDocumentContract(),
    EntryPointSurface(),
    SpecDocumentCaseCap(),
    TestRecordCaseCap(),
    SpecFragmentation(),
    SpecContractLink(),
    LegacyCriteriaLedger(),
)

RULES_BY_ID: dict[str, Rule] = {rule.meta.id: rule for rule in RULES}

ALIASES: dict[str, str] = {alias: rule.meta.id for rule in RULES for alias in rule.meta.aliases}

if tuple(RULES_BY_ID) != catalogue.RULE_IDS or ALIASES != catalogue.ALIASES:
    raise RuntimeError("filid.rules.catalogue does not list the registered rules")

canonical_rule_id = catalogue.canonical_rule_id
