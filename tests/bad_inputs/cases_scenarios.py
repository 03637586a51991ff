"""Corpus cases: the scenario file (encodings, YAML, fields), the datasets, references,
criteria files and images it names."""

from __future__ import annotations

import yaml

from tests.bad_inputs.builders import (
    LATIN1,
    LAUGHS,
    OUT,
    PNG,
    Bad,
    absolute_png,
    base,
    big_png,
    inside_link,
    link,
    outside_dataset,
    outside_png,
    raw,
    ref_file,
    scenario,
    step,
    twins,
    with_check,
    with_files,
)

SCENARIO_CASES: list[Bad] = [
    # -- the scenario file itself: encodings and YAML shapes
    Bad("scenario-latin1", raw(LATIN1), ("{id}.yaml", "is not UTF-8")),
    Bad("scenario-utf16", raw("id: x\n".encode("utf-16")), ("{id}.yaml", "is not UTF-8")),
    Bad("scenario-nul-byte", raw("id: a\x00b\n"), ("{id}.yaml", "not valid YAML")),
    Bad("scenario-tab-indent", raw("id: x\n\tprompt: y\n"), ("{id}.yaml: line 2", "tab")),
    Bad("scenario-list", raw("- id: x\n"), ("{id}.yaml", "must be a YAML mapping")),
    Bad("scenario-scalar", raw("just words\n"), ("{id}.yaml", "must be a YAML mapping")),
    Bad("scenario-empty", raw(""), ("{id}.yaml", "must be a YAML mapping")),
    Bad("scenario-deep-nesting", raw("id: " + "[" * 5000), ("{id}.yaml", "not valid YAML")),
    Bad(
        "scenario-billion-laughs",
        raw(LAUGHS + "id: {id}\ndescription: *i\n"),
        ("{id}.yaml: a", "unknown field"),
    ),
    Bad("scenario-bom", raw("\ufeff" + yaml.safe_dump(base("BOM"))), accepted=True),
    Bad("scenario-crlf", raw(yaml.safe_dump(base("CRLF")).replace("\n", "\r\n")), accepted=True),
    # -- fields
    Bad("id-number", scenario(id=42), ("{id}.yaml: id", "valid string")),
    Bad("id-spaces", scenario(id="bad id"), ("{id}.yaml: id", "should match pattern")),
    Bad("id-missing", scenario(id=None), ("{id}.yaml: id", "required field is missing")),
    Bad("prompt-empty", scenario(prompt=""), ("{id}.yaml: prompt", "at least 1 character")),
    Bad("prompt-list", scenario(prompt=["a"]), ("{id}.yaml: prompt", "valid string")),
    Bad("datasets-string", scenario(datasets="Mini"), ("{id}.yaml: datasets", "valid list")),
    Bad("description-list", scenario(description=["a"]), ("{id}.yaml: description", "string")),
    Bad("title-mapping", scenario(title={"a": 1}), ("{id}.yaml: title", "valid string")),
    Bad("criteria-list", scenario(criteria=["a"]), ("{id}.yaml: criteria", "valid dictionary")),
    Bad(
        "criteria-no-accuracy",
        scenario(criteria={"accuracy": [], "completeness": ["y"]}),
        ("{id}.yaml: criteria.accuracy", "no accuracy steps"),
    ),
    Bad(
        "weight-word",
        scenario(criteria=step(weight="heavy")),
        ("{id}.yaml: criteria.accuracy.0.weight", "valid number"),
    ),
    Bad(
        "weight-nan",
        scenario(criteria=step(weight=float("nan"))),
        ("{id}.yaml: criteria.accuracy.0.weight", "finite number"),
    ),
    Bad(
        "weight-inf",
        scenario(criteria=step(weight=float("inf"))),
        ("{id}.yaml: criteria.accuracy.0.weight", "finite number"),
    ),
    Bad(
        "criterion-empty",
        scenario(criteria={"accuracy": [{"criterion": ""}], "completeness": ["y"]}),
        ("{id}.yaml: criteria.accuracy.0.criterion", "at least 1 character"),
    ),
    Bad(
        "criterion-and-criteria",
        scenario(
            criteria={"accuracy": [{"criterion": "a", "criteria": "b"}], "completeness": ["y"]}
        ),
        ("{id}.yaml: criteria.accuracy.0", "not both"),
    ),
    Bad("check-no-kind", with_check(ignore_case=True), ("{id}.yaml", "exactly one of")),
    Bad("check-regex-broken", with_check(regex="("), ("{id}.yaml", "regex does not compile")),
    Bad("check-parses-cobol", with_check(parses="cobol"), ("{id}.yaml", "parses takes true")),
    Bad("check-parses-false", with_check(parses=False), ("{id}.yaml", "not false")),
    Bad(
        "check-path-single-shot",
        with_check(contains="a", path="a.js"),
        ("{id}.yaml: criteria.accuracy.0.check.path", "dialog turns only"),
    ),
    Bad(
        "check-unknown-field",
        with_check(contains="a", bogus=1),
        ("check.bogus", "unknown field"),
    ),
    Bad("check-contains-number", with_check(contains=5), ("{id}.yaml: criteria", "string")),
    Bad(
        "judge-images-alone",
        scenario(judge_images=True),
        ("{id}.yaml: judge_images", "no images"),
    ),
    Bad(
        "limits-in-single-shot",
        scenario(limits={"max_rounds": 0}),
        ("{id}.yaml: limits", "greater"),
    ),
    # -- datasets named by a scenario
    Bad(
        "dataset-climbs",
        scenario(datasets=["python/../../outside/Evil"]),
        ("{id}.yaml: datasets.0", "not a dataset name"),
    ),
    Bad(
        "dataset-absolute",
        scenario(datasets=["/etc"]),
        ("{id}.yaml: datasets.0", "not a dataset name"),
    ),
    Bad(
        "dataset-three-parts",
        scenario(datasets=["a/b/c"]),
        ("{id}.yaml: datasets.0", "not a dataset name"),
    ),
    Bad(
        "dataset-empty-name",
        scenario(datasets=[""]),
        ("{id}.yaml: datasets.0", "not a dataset name"),
    ),
    Bad(
        "dataset-dot",
        scenario(datasets=["javascript/."]),
        ("{id}.yaml: datasets.0", "not a dataset name"),
    ),
    Bad(
        "dataset-ambiguous",
        with_files(twins, datasets=["T{id}"]),
        ("{id}.yaml: datasets.0", "ambiguous"),
    ),
    Bad(
        "dataset-folder-links-out",
        with_files(outside_dataset, datasets=["D{id}"]),
        ("{id}.yaml: datasets.0", "outside"),
    ),
    # -- reference files
    Bad(
        "reference-absolute",
        scenario(references={"Mini": {"file": "/etc/passwd"}}),
        ("{id}.yaml: references.Mini.file", "absolute path"),
    ),
    Bad(
        "reference-home",
        scenario(references={"Mini": {"file": "~/.ssh/id_rsa"}}),
        ("{id}.yaml: references.Mini.file", "absolute path"),
    ),
    Bad(
        "reference-climbs",
        scenario(references={"Mini": {"file": OUT}}),
        ("{id}.yaml: references.Mini.file", "outside"),
    ),
    Bad(
        "reference-missing",
        scenario(references={"Mini": {"file": "references/none.md"}}),
        ("{id}.yaml: references.Mini.file", "does not exist"),
    ),
    Bad(
        "reference-link-out",
        with_files(
            lambda r, s: link(r, f"scenarios/explanation/references/{s}.md", "/etc/passwd"),
            references={"Mini": {"file": "references/{id}.md"}},
        ),
        ("{id}.yaml: references.Mini.file", "outside"),
    ),
    Bad(
        "reference-latin1",
        with_files(
            ref_file("references/{id}.md", b"caf\xe9"),
            references={"Mini": {"file": "references/{id}.md"}},
        ),
        ("{id}.md", "is not UTF-8"),
    ),
    Bad(
        "reference-folder",
        with_files(
            ref_file("references/{id}/x.md", "x"), references={"Mini": {"file": "references/{id}"}}
        ),
        ("{id}.yaml: references.Mini.file", "is a folder"),
    ),
    Bad(
        "reference-list",
        scenario(references={"Mini": [1]}),
        ("{id}.yaml: references.Mini", "valid"),
    ),
    Bad(
        "reference-unknown-key",
        scenario(references={"Other": "x"}),
        ("{id}.yaml: references.Other", "is not one of"),
    ),
    Bad(
        "reference-script-single-shot",
        scenario(references={"Mini": {"script": "x.yaml"}}),
        ("{id}.yaml: references.Mini", "dialog scenarios only"),
    ),
    Bad(
        "reference-inside-via-dots",
        with_files(
            ref_file("references/{id}.md", "ok"),
            references={"Mini": {"file": "../explanation/references/{id}.md"}},
        ),
        accepted=True,
    ),
    Bad(
        "reference-link-inside",
        with_files(inside_link, references={"Mini": {"file": "references/{id}.md"}}),
        accepted=True,
    ),
    # -- per-dataset criteria files
    Bad(
        "criteria-file-absolute",
        scenario(dataset_criteria={"Mini": {"file": "/etc/hostname"}}),
        ("dataset_criteria.Mini.file", "absolute path"),
    ),
    Bad(
        "criteria-file-climbs",
        scenario(dataset_criteria={"Mini": {"file": OUT}}),
        ("dataset_criteria.Mini.file", "outside"),
    ),
    Bad(
        "criteria-file-missing",
        scenario(dataset_criteria={"Mini": {"file": "criteria/none.yaml"}}),
        ("dataset_criteria.Mini.file", "does not exist"),
    ),
    Bad(
        "criteria-file-bad-yaml",
        with_files(
            ref_file("criteria/{id}.yaml", "accuracy: [\n"),
            dataset_criteria={"Mini": {"file": "criteria/{id}.yaml"}},
        ),
        ("{id}.yaml: line", "not valid YAML"),
    ),
    Bad(
        "criteria-file-latin1",
        with_files(
            ref_file("criteria/{id}.yaml", b"accuracy: [caf\xe9]"),
            dataset_criteria={"Mini": {"file": "criteria/{id}.yaml"}},
        ),
        ("{id}.yaml", "is not UTF-8"),
    ),
    Bad(
        "criteria-file-unknown-key",
        scenario(dataset_criteria={"Nope": {"accuracy": ["a"]}}),
        ("dataset_criteria.Nope", "is not one of"),
    ),
    # -- images
    Bad("image-absolute", absolute_png, ("{id}.yaml: images.0.file", "absolute path")),
    Bad(
        "image-climbs",
        scenario(images=["../../../../../../../../tmp/x.png"]),
        ("{id}.yaml: images.0.file", "outside"),
    ),
    Bad(
        "image-link-out",
        with_files(outside_png, images=["img/{id}.png"]),
        ("{id}.yaml: images.0.file", "outside"),
    ),
    Bad(
        "image-missing",
        scenario(images=["img/none.png"]),
        ("{id}.yaml: images.0.file", "does not exist"),
    ),
    Bad(
        "image-not-png",
        with_files(ref_file("img/{id}.png", "text"), images=["img/{id}.png"]),
        ("images.0.file", "not a PNG or JPEG"),
    ),
    Bad(
        "image-too-large",
        with_files(big_png, images=["img/{id}.png"]),
        ("images.0.file", "at most"),
    ),
    Bad(
        "image-inside-via-dots",
        with_files(ref_file("img/{id}.png", PNG), images=["../explanation/img/{id}.png"]),
        accepted=True,
    ),
    # -- hidden tests (functional:) and mutants files
    Bad(
        "functional-tests-absolute",
        scenario(functional={"Mini": {"tests": "/etc"}}),
        ("{id}.yaml: functional.Mini.tests", "absolute path"),
    ),
    Bad(
        "functional-tests-climb",
        scenario(functional={"Mini": {"tests": OUT}}),
        ("{id}.yaml: functional.Mini.tests", "outside"),
    ),
    Bad(
        "functional-tests-missing",
        scenario(functional={"Mini": {"tests": "functional/none"}}),
        ("{id}.yaml: functional.Mini.tests", "does not exist"),
    ),
    Bad(
        "functional-tests-file",
        with_files(
            ref_file("functional/{id}.test.mjs", "x"),
            functional={"Mini": {"tests": "functional/{id}.test.mjs"}},
        ),
        ("{id}.yaml: functional.Mini.tests", "is not a folder"),
    ),
    Bad(
        "functional-test-links-out",
        with_files(
            lambda r, s: link(r, f"scenarios/explanation/functional/{s}/a.test.mjs", "/etc/passwd"),
            functional={"Mini": {"tests": "functional/{id}"}},
        ),
        ("{id}.yaml: functional.Mini.tests", "outside"),
    ),
    Bad(
        "functional-test-latin1",
        with_files(
            ref_file("functional/{id}/a.test.mjs", b"caf\xe9"),
            functional={"Mini": {"tests": "functional/{id}"}},
        ),
        ("{id}/a.test.mjs: is not UTF-8 text", "functional.Mini.tests"),
    ),
    Bad(
        "functional-unknown-runner",
        with_files(
            ref_file("functional/{id}/a.test.mjs", "x"),
            functional={"Mini": {"tests": "functional/{id}", "runner": "mocha"}},
        ),
        ("{id}.yaml: functional.Mini.runner", "node"),
    ),
    Bad(
        "functional-unknown-dataset",
        with_files(
            ref_file("functional/{id}/a.test.mjs", "x"),
            functional={"Other": {"tests": "functional/{id}"}},
        ),
        ("{id}.yaml: functional.Other", "is not one of this scenario's datasets"),
    ),
    Bad(
        "functional-timeout-nan",
        with_files(
            ref_file("functional/{id}/a.test.mjs", "x"),
            functional={"Mini": {"tests": "functional/{id}", "timeout_s": float("nan")}},
        ),
        ("{id}.yaml: functional.Mini.timeout_s", ""),
    ),
    Bad(
        "functional-processes-too-low",
        with_files(
            ref_file("functional/{id}/a.test.mjs", "x"),
            functional={"Mini": {"tests": "functional/{id}", "processes": 2}},
        ),
        ("{id}.yaml: functional.Mini.processes", "greater than or equal to 16"),
    ),
    Bad(
        "mutants-missing-file",
        with_files(
            ref_file("functional/{id}/README.md", "x"),
            functional={"Mini": {"tests": "functional/{id}", "mode": "mutation"}},
        ),
        ("{id}.yaml: functional.Mini.mutants", "needs a mutants file"),
    ),
    Bad(
        "mutants-find-absent",
        with_files(
            lambda r, s: (
                ref_file("functional/{id}/README.md", "x")(r, s),
                ref_file(
                    "functional/{id}.yaml",
                    "- {id: M1, file: src/app.js, find: 'no such text', replace: x}\n",
                )(r, s),
            ),
            functional={
                "Mini": {
                    "tests": "functional/{id}",
                    "mode": "mutation",
                    "runner": "vitest",
                    "mutants": "functional/{id}.yaml",
                }
            },
        ),
        ("{id}.yaml: functional.Mini.mutants", "M1"),
    ),
]
