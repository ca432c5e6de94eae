#!/usr/bin/env bash
# Recreates every release tag that CHANGELOG.md records and this clone lacks, so that a copy of the repository
# without tags (a mirror that dropped them, a clone made with --no-tags) can be used as a dependency `from:` a release.
#
# Usage: bash Scripts/restore-release-tags.sh        (no arguments; run it in a clone)
#
# Each release section of CHANGELOG.md, `## [X.Y.Z] - DATE`, records its release commit on a line of its own:
# `Release commit: <40 hex digits>` (in backticks). A missing tag is created there (a lightweight tag, as SwiftPM
# needs no more). A tag that exists is left alone; one that points elsewhere is reported and fails the run, as does a
# recorded commit missing from the clone (a shallow clone: `git fetch --unshallow` first).
set -euo pipefail
root="$(git -C "$(dirname "$0")" rev-parse --show-toplevel)"
cd "$root"

version=""
releases=()
while IFS= read -r line; do
    if [[ "$line" =~ ^##\ \[([0-9]+\.[0-9]+\.[0-9]+)\] ]]; then
        [ -z "$version" ] || { echo "CHANGELOG.md: release $version records no release commit" >&2; exit 1; }
        version="${BASH_REMATCH[1]}"
    elif [ -n "$version" ] && [[ "$line" =~ ^Release\ commit:\ \`([0-9a-f]{40})\` ]]; then
        releases+=("$version ${BASH_REMATCH[1]}")
        version=""
    fi
done <CHANGELOG.md
[ -z "$version" ] || { echo "CHANGELOG.md: release $version records no release commit" >&2; exit 1; }
[ "${#releases[@]}" -gt 0 ] || { echo "CHANGELOG.md records no release" >&2; exit 1; }

failed=0
for release in "${releases[@]}"; do
    read -r version commit <<<"$release"
    if existing=$(git rev-parse -q --verify "refs/tags/$version^{commit}"); then
        if [ "$existing" = "$commit" ]; then
            echo "$version: tag present at ${commit:0:12}"
        else
            echo "$version: the tag points at ${existing:0:12}, but CHANGELOG.md records ${commit:0:12}; left as it is" >&2
            failed=1
        fi
    elif git cat-file -e "$commit^{commit}" 2>/dev/null; then
        git -c tag.gpgSign=false tag "$version" "$commit"  # lightweight, whatever the user's signing settings
        echo "$version: tag restored at ${commit:0:12}"
    else
        echo "$version: commit ${commit:0:12} is not in this clone (a shallow clone? git fetch --unshallow)" >&2
        failed=1
    fi
done
exit "$failed"
