"""What the public18 family modules share: the provenance header of a program and the
marked entry point appended to it."""

BUILDER = "scripts/evalsets/public18/pub18.py"


def header(repo, paths, what, comment="//"):
    c = comment
    return (f"{c} Evaluation set public18 (kforecast issue 20, 1(b)), written by {BUILDER}.\n"
            f"{c} Source: {repo.name}@{repo.commit} : {', '.join(paths)}\n"
            f"{c} {what}\n"
            f"{c} Code below is the source's, verbatim, except where a comment says KFORECAST.\n\n")


def kf(body, what="what the driver's main() does for this algorithm once"):
    return f"\n\n// KFORECAST: entry point (ours), {what}.\n" + body.strip("\n") + "\n"
