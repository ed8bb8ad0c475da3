# shellcheck shell=bash
# Shell functions the spec scripts share (Scripts/spec/fetch-spec.sh, Scripts/spec/update-spec.sh; their end-to-end
# test is Scripts/spec/tests), sourced after lib.sh (for $ROOT), never run: `source "$ROOT/Scripts/lib/spec.sh"`.
# Each needs python3 (Scripts/lib/script_tools.py); none exits the caller.

# Prints the sha256 (lowercase hex) of a file, read in 1 MiB chunks.
sha256_of() {
    python3 "$ROOT/Scripts/lib/script_tools.py" sha256 "$1"
}

# Prints one top-level field of a JSON file (empty when absent or null): json_field FILE KEY.
json_field() {
    python3 "$ROOT/Scripts/lib/script_tools.py" json-field "$1" "$2"
}

# Prints the spec cache folder: $OPENAI_SPEC_CACHE, default ${XDG_CACHE_HOME:-$HOME/.cache}/openai-swift/specs.
# Scripts/spec/fetch-spec.sh looks there for <sha256>.yaml; it and Scripts/spec/update-spec.sh put specs there.
spec_cache_dir() {
    printf '%s\n' "${OPENAI_SPEC_CACHE:-${XDG_CACHE_HOME:-${HOME:-}/.cache}/openai-swift/specs}"
}

# Puts FILE into the spec cache as <SHA>.yaml (written beside it first, then renamed, so a reader never sees half a
# file): spec_cache_put FILE SHA. Prints the cached path; returns 1 (leaving nothing behind) when it cannot.
spec_cache_put() {
    local dir partial
    dir="$(spec_cache_dir)"
    [[ -n "$dir" ]] || return 1
    partial="$dir/.$2.yaml.$$"
    if mkdir -p "$dir" 2>/dev/null && cp "$1" "$partial" 2>/dev/null && mv -f "$partial" "$dir/$2.yaml"; then
        printf '%s\n' "$dir/$2.yaml"
    else
        rm -f "$partial" 2>/dev/null
        return 1
    fi
}
