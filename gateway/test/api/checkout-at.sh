#!/usr/bin/env bash
# checkout-at.sh SHA DIR: a worktree of an earlier commit for request-cost.ts to measure beside this
# one. Its node_modules borrow this checkout's installed packages, except the workspaces, which point
# at the worktree's own shared/, gateway/, web/ and loadtests/. Remove it with `git worktree remove DIR`.
set -euo pipefail
sha=$1
dir=$2
here=$(git rev-parse --show-toplevel)
[ -d "$dir" ] || git -C "$here" worktree add --detach "$dir" "$sha" >/dev/null
mkdir -p "$dir/node_modules/@tradegate"
for entry in "$here"/node_modules/* "$here"/node_modules/.bin; do
  name=$(basename "$entry")
  [ "$name" = "@tradegate" ] && continue
  [ -e "$dir/node_modules/$name" ] || ln -s "$entry" "$dir/node_modules/$name"
done
for workspace in shared gateway web loadtests; do
  ln -sfn "../../$workspace" "$dir/node_modules/@tradegate/$workspace"
  if [ -d "$here/$workspace/node_modules" ] && [ ! -e "$dir/$workspace/node_modules" ]; then
    ln -s "$here/$workspace/node_modules" "$dir/$workspace/node_modules"
  fi
done
