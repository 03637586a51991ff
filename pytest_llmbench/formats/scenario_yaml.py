"""Scenario files as the importers write them (airun/, polyglot/): YAML in the order the
mapping gives, multi-line strings as literal blocks, lines never folded."""

from __future__ import annotations

from collections.abc import Mapping

import yaml


class _Dumper(yaml.SafeDumper):
    pass


def _str(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _str)


def scenario_yaml(spec: Mapping[str, object]) -> str:
    """The text of a scenario file holding `spec`."""
    return yaml.dump(dict(spec), Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=10**6)
