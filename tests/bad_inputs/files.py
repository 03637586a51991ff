"""Bad scenario files, datasets, links, encodings, templates and sizes: one case each.

Every case writes its own scenario file `scenarios/<category>/<ID>.yaml` (and, when it
needs one, its own dataset `datasets/javascript/D<ID>`) into one project, so a single
`--collect-only` run checks them all (test_collection_corpus.py). A case either expects
one output line holding all of `expect` ("{id}" is the case id), or is a documented
tolerance (`accepted`: the scenario is collected; docs/formats.md says why).
"""

from __future__ import annotations

from tests.bad_inputs.builders import CANARY, PASSWD_LINE, Bad, dataset
from tests.bad_inputs.cases_other import OTHER_CASES
from tests.bad_inputs.cases_scenarios import SCENARIO_CASES

CASES: dict[str, Bad] = {bad.kind: bad for bad in [*SCENARIO_CASES, *OTHER_CASES]}

__all__ = ["CANARY", "CASES", "PASSWD_LINE", "Bad", "dataset"]
