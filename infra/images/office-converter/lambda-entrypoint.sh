#!/bin/sh
# Entry point of the office converter image, as in AWS's own base images: Lambda starts the image with its CMD (the
# handler, index.handler) as argument; the runtime interface client reads it from _HANDLER and loads it from
# LAMBDA_TASK_ROOT.
set -e
if [ "$#" -ne 1 ]; then
  echo "usage: lambda-entrypoint.sh <module>.<handler>" >&2
  exit 142
fi
export _HANDLER="$1"
export LAMBDA_TASK_ROOT="${LAMBDA_TASK_ROOT:-/var/task}"
exec node /opt/ric/node_modules/aws-lambda-ric/index.mjs
