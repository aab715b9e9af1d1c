"""The sections of REPORT.md (scripts/report.py), one module per section or
group of sections over the same input; common.py holds the Report page and
the readers they share."""
