"""What every evaluation-set builder shares: a reader of a fetched bare repository, file
writing, the set's folder cleared or its shared index files merged, and the provenance
headers written at the top of each program (parametrised by the set's title and builder).

The builders (public/build.py, public2/pubcuda.py and pubmix.py, public3/pub3.py,
public4/pub4.py, public5/pub5.py, public6/pub6.py, public7/cuda100.py) import this module
from scripts/evalsets/public/, which they put on sys.path.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys

HELD_BACK = ("karpathy/llm.c", "siboehm/SGEMM_CUDA", "codezakh/gpu-forecasters")


def tool():
    """The running builder's file name, for error messages."""
    return os.path.basename(sys.argv[0]) or "setkit"


class Repo:
    """A local bare copy of a public repository made with the session's `fetch` tool
    (MIRROR/<owner>+<name>/repo), read at its HEAD commit; refuses the held-back ones."""

    def __init__(self, mirror, full_name):
        if full_name in HELD_BACK:
            raise SystemExit(f"{tool()}: {full_name} is held back and never read")
        self.name = full_name
        self.git_dir = os.path.join(mirror, full_name.replace("/", "+"), "repo")
        if not os.path.isdir(self.git_dir):
            raise SystemExit(f"{tool()}: no local copy of {full_name} at {self.git_dir} "
                             f"(fetch it first: fetch github:{full_name})")
        self.commit = self.git("rev-parse", "HEAD").strip()

    def git(self, *args, binary=False):
        res = subprocess.run(["git", "--git-dir", self.git_dir, *args], capture_output=True)
        if res.returncode != 0:
            raise SystemExit(f"{tool()}: git {' '.join(args)} failed in {self.git_dir}: "
                             f"{res.stderr.decode(errors='replace')}")
        return res.stdout if binary else res.stdout.decode()

    def show(self, path, commit=None):
        """The file at `path` in HEAD's tree (or in `commit`'s)."""
        return self.git("show", f"{commit or self.commit}:{path}")

    def has(self, commit, path):
        return subprocess.run(["git", "--git-dir", self.git_dir, "cat-file", "-e", f"{commit}:{path}"],
                              capture_output=True).returncode == 0

    def ls(self, under):
        return [p for p in self.git("ls-tree", "-r", "--name-only", self.commit, under).splitlines() if p]

    def commits(self, paths):
        """Commits that touched any of `paths`, oldest first (full hashes)."""
        return self.git("log", "--format=%H", self.commit, "--", *paths).split()[::-1]

    def at(self):
        return f"{self.name}@{self.commit[:12]}"

    def ref(self, path):
        return f"{self.at()}:{path}"


def builder_args(doc, default_out, shared=False, more=None):
    """A builder's command line: --mirror (the folder of fetched bare repositories) and --out
    (the set's folder, made absolute); `more(parser)` adds the builder's own options."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mirror", default="/work/.mirror", help="folder of fetched bare repositories")
    ap.add_argument("--out", default=default_out,
                    help="the set's folder (outside git, shared)" if shared else "the set's folder (outside git)")
    if more is not None:
        more(ap)
    args = ap.parse_args()
    args.out = os.path.abspath(args.out)
    return args


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def read_json(path, default):
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    return default


def clear_set(out):
    """Empties a set's folder that is the builder's alone, keeping measurements/."""
    keep = os.path.join(out, "measurements")
    if os.path.isdir(out):
        for entry in os.listdir(out):
            p = os.path.join(out, entry)
            if p != keep:
                shutil.rmtree(p) if os.path.isdir(p) else os.remove(p)
    os.makedirs(out, exist_ok=True)


def clear_prefix(out, prefix, vendor):
    """In a folder shared with other builders, removes only this builder's family folders
    (names starting with `prefix`) and its `_vendor/<vendor>/`."""
    os.makedirs(out, exist_ok=True)
    for entry in os.listdir(out):
        p = os.path.join(out, entry)
        if entry.startswith(prefix) and os.path.isdir(p):
            shutil.rmtree(p)
    shutil.rmtree(os.path.join(out, "_vendor", vendor), ignore_errors=True)


def write_index(out, families, sources, sort_keys=False):
    """A set's families.json and SOURCES.json."""
    write(os.path.join(out, "families.json"), json.dumps(families, indent=1) + "\n")
    write(os.path.join(out, "SOURCES.json"), json.dumps(sources, indent=1, sort_keys=sort_keys) + "\n")


def merge_index(out, prefix, families, sources, sort_keys=False):
    """Read-modify-write of the shared families.json and SOURCES.json (a dict keyed by
    family): only the entries whose family starts with `prefix` are replaced."""
    kept = [f for f in read_json(os.path.join(out, "families.json"), []) if not f["family"].startswith(prefix)]
    sj = os.path.join(out, "SOURCES.json")
    old = read_json(sj, {})
    if not isinstance(old, dict):
        raise SystemExit(f"{tool()}: {sj} is not a dict keyed by family")
    srcs = {k: v for k, v in old.items() if not k.startswith(prefix)}
    srcs.update(sources)
    write_index(out, kept + families, srcs, sort_keys)


def measured_note(fam, failing, day):
    """`fam` with its notes saying how its versions fared in the H100 measurement of `day`:
    `failing` maps a version's path (`family/file`) to why it failed."""
    bad = [f"{f.split('/', 1)[1]} ({why})" for f, why in failing.items() if f in fam["files"]]
    if bad:
        fam["notes"] += f" H100 measurement of {day}, failing: " + "; ".join(bad) + "; every other version passed."
    else:
        fam["notes"] += f" H100 measurement of {day}: every version passed."
    return fam


def pair_counts(families):
    """(program files, ordered pairs) of a list of families.json entries."""
    return (sum(len(f["files"]) for f in families),
            sum(len(f["files"]) * (len(f["files"]) - 1) for f in families))


VERBATIM = "Code below is the source's, verbatim, except where a comment says KFORECAST."


class SetText:
    """The texts a set's builder writes: adapters copied from its adapters/ folder and the
    provenance headers, which name the set (`title`, e.g. "Evaluation set public3") and the
    builder (`builder`, its path from the repository root)."""

    def __init__(self, title, builder, adapters):
        self.title = title
        self.builder = builder
        self.adapters = adapters

    def adapter(self, name):
        with open(os.path.join(self.adapters, name), encoding="utf-8") as f:
            return f.read()

    def built_by(self, comment):
        """The first provenance line (no newline): the set and its builder."""
        return f"{comment} {self.title} of kforecast, built by {self.builder} from"

    def header(self, repo, paths, what, comment="//", note=VERBATIM):
        """Provenance lines: the set, the repository and commit, the source paths, `what`,
        and `note` (what was changed; its lines each commented; None: no note)."""
        c = comment
        lines = [self.built_by(c), f"{c} {repo.name} at commit {repo.commit}:"]
        lines += [f"{c}   {p}" for p in paths]
        lines += [f"{c} {what}"]
        if note is not None:
            lines += [f"{c} {line}" for line in note.split("\n")]
        return "\n".join(lines + [""]) + "\n"

    def py_line_header(self, name, commit, path, what):
        """The short Python provenance comment: one source path on the commit's line."""
        return f"{self.built_by('#')}\n# {name} at commit {commit}: {path}\n# {what}\n"

    def py_header(self, repo, path, what):
        return self.py_line_header(repo.name, repo.commit, path, what)

    def ours_py(self, what, body, kind="reference"):
        """A torch program no source ships, written by the builder (marked as ours)."""
        return (f"# {self.title} of kforecast: a torch {kind} written by {self.builder}\n"
                f"# (KFORECAST's own code, not a public source). {what}\n" + body)
