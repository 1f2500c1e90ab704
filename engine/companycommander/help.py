"""The `rules` command's topics: short texts in our own words (rules/companycommander.md has the whole)."""

from __future__ import annotations

TOPICS: dict[str, str] = {
    "overview": "Company Commander.",
}
