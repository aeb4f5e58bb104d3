# /etc/profile.d/app-env.sh - project environment, sourced by login shells and, through
# BASH_ENV, by every non-interactive bash (the way conda/micromamba images activate their env).
export APP_HOME=/app
export PYTHONDONTWRITEBYTECODE=1
