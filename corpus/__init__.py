"""Data package: the rule documents (raw and normalized), section trees and records.

Built from corpus/raw/ by ``python -m tools.corpus.build``; read through ``index.corpus``.
"""
