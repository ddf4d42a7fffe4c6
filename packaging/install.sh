#!/usr/bin/env bash
# install.sh - what `make install` and `make uninstall` do, once the Makefile has built notify
# and its manual.
#
# usage: install.sh install NOTIFY MAN_DIRECTORY
#        install.sh uninstall
#
# From the environment: PREFIX (an absolute path), DESTDIR (empty, or where the tree is staged),
# NOTIFY_SEND_LINK (1: also a notify-send symlink to notify in PREFIX/bin), SYSTEMD_USER_DIR
# (optional: where the systemd user unit goes).
#
# install writes PREFIX/share/desktopnotifications/install-manifest: every file it wrote and
# every directory it had to create. uninstall removes exactly those (a directory only when it
# is empty), then the manifest, so that nothing is left behind and nothing that was there
# before is touched.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
: "${PREFIX:?PREFIX is not set}"
DESTDIR=${DESTDIR:-}
NOTIFY_SEND_LINK=${NOTIFY_SEND_LINK:-0}
case "$PREFIX" in /*) ;; *) echo "install.sh: PREFIX must be an absolute path, not '$PREFIX'" >&2; exit 2 ;; esac
PREFIX=${PREFIX%/}

bindir=$PREFIX/bin
mandir=$PREFIX/share/man/man1
bash_completions=$PREFIX/share/bash-completion/completions
zsh_completions=$PREFIX/share/zsh/site-functions
fish_completions=$PREFIX/share/fish/vendor_completions.d
dbus_services=$PREFIX/share/dbus-1/services
# systemd reads user units from /usr/lib/systemd/user and /usr/local/lib/systemd/user, and from
# share/systemd/user under $XDG_DATA_HOME (~/.local/share) and each of $XDG_DATA_DIRS: never
# from ~/.local/lib. SYSTEMD_USER_DIR chooses another folder.
case "$PREFIX" in
    /usr | /usr/local) systemd_user=${SYSTEMD_USER_DIR:-$PREFIX/lib/systemd/user} ;;
    *) systemd_user=${SYSTEMD_USER_DIR:-$PREFIX/share/systemd/user} ;;
esac
manifest_dir=$PREFIX/share/desktopnotifications
manifest=$manifest_dir/install-manifest

# Where the pages, completions and service files are made before they are put in place.
generated=""
# The manifest's lines: "d PATH" for a directory this install created, "f PATH" for a file or
# symlink it wrote; paths as installed (without DESTDIR).
entries=()
installing=0

# An install that fails half-way (a folder it may not write, a full disk) takes back what it
# had written, so that nothing is left without a manifest.
finish() {
    local rc=$? index line
    [ -z "$generated" ] || rm -rf "$generated"
    if [ "$rc" != 0 ] && [ "$installing" = 1 ]; then
        for ((index = ${#entries[@]} - 1; index >= 0; index--)); do
            line=${entries[index]}
            case "$line" in
                "f "*) rm -f "$DESTDIR${line#f }" ;;
                "d "*) rmdir "$DESTDIR${line#d }" 2>/dev/null || true ;;
            esac
        done
        echo "install.sh: install failed; what it had written is removed" >&2
    fi
    exit "$rc"
}
trap finish EXIT

# Creates PATH and each missing parent, noting the ones created, outermost first.
make_directory() {
    local path=$1 missing=() parent
    parent=$path
    while [ "$parent" != / ] && [ ! -d "$DESTDIR$parent" ]; do
        missing=("$parent" "${missing[@]}")
        parent=$(dirname "$parent")
    done
    for parent in "${missing[@]}"; do
        mkdir -m 755 "$DESTDIR$parent"
        entries+=("d $parent")
    done
}

# Copies SOURCE to TARGET with MODE.
put() {
    local mode=$1 source=$2 target=$3
    make_directory "$(dirname "$target")"
    install -m "$mode" "$source" "$DESTDIR$target"
    entries+=("f $target")
}

install_files() {
    local notify=$1 manual=$2 page name
    [ -x "$notify" ] || { echo "install.sh: no notify at $notify" >&2; exit 1; }
    compgen -G "$manual/*.1" >/dev/null || { echo "install.sh: no man pages in $manual" >&2; exit 1; }
    if [ -e "$DESTDIR$manifest" ]; then
        echo "install.sh: $DESTDIR$manifest exists: an earlier install is there; run make uninstall first" >&2
        exit 1
    fi

    if [ "$NOTIFY_SEND_LINK" = 1 ] && { [ -e "$DESTDIR$bindir/notify-send" ] || [ -L "$DESTDIR$bindir/notify-send" ]; }; then
        echo "install.sh: $DESTDIR$bindir/notify-send exists; not replacing it" >&2
        exit 1
    fi

    # A staging folder is the packager's, not part of what is installed.
    [ -z "$DESTDIR" ] || mkdir -p "$DESTDIR"
    installing=1
    put 755 "$notify" "$bindir/notify"
    if [ "$NOTIFY_SEND_LINK" = 1 ]; then
        ln -s notify "$DESTDIR$bindir/notify-send"
        entries+=("f $bindir/notify-send")
    fi
    generated=$(mktemp -d -t desktopnotifications-install.XXXXXX)
    for page in "$manual"/*.1; do
        name=$(basename "$page")
        awk -f "$here/tidy-manual.awk" "$page" > "$generated/$name"
        put 644 "$generated/$name" "$mandir/$name"
    done
    # The completion scripts come from the command itself (swift-argument-parser writes them);
    # bash's is sourced, never run, so its #! line goes. The service files name the installed notify.
    "$notify" --generate-completion-script bash | sed '1{/^#!/d}' > "$generated/notify.bash"
    "$notify" --generate-completion-script zsh > "$generated/_notify"
    "$notify" --generate-completion-script fish > "$generated/notify.fish"
    sed "s|@bindir@|$bindir|g" "$here/../dbus/org.desktopnotifications.Agent.service.in" > "$generated/dbus.service"
    sed "s|@bindir@|$bindir|g" "$here/desktopnotifications-agent.service.in" > "$generated/systemd.service"
    put 644 "$generated/notify.bash" "$bash_completions/notify"
    put 644 "$generated/_notify" "$zsh_completions/_notify"
    put 644 "$generated/notify.fish" "$fish_completions/notify.fish"
    put 644 "$generated/dbus.service" "$dbus_services/org.desktopnotifications.Agent.service"
    put 644 "$generated/systemd.service" "$systemd_user/desktopnotifications-agent.service"

    make_directory "$manifest_dir"
    entries+=("f $manifest")
    printf '%s\n' "${entries[@]}" > "$DESTDIR$manifest"
    chmod 644 "$DESTDIR$manifest"
    installing=0
    for name in "${entries[@]}"; do
        [ "${name:0:1}" = f ] && echo "installed ${DESTDIR}${name:2}"
    done
}

uninstall_files() {
    local line kind path lines=()
    if [ ! -f "$DESTDIR$manifest" ]; then
        echo "install.sh: no $DESTDIR$manifest: nothing was installed with this PREFIX and DESTDIR" >&2
        exit 1
    fi
    mapfile -t lines < "$DESTDIR$manifest"
    # Files first, then the directories, innermost first.
    for line in "${lines[@]}"; do
        kind=${line%% *} path=${line#* }
        if [ "$kind" = f ] && [ "$path" != "$manifest" ]; then
            rm -f "$DESTDIR$path"
            echo "removed $DESTDIR$path"
        fi
    done
    rm -f "$DESTDIR$manifest"
    for ((index = ${#lines[@]} - 1; index >= 0; index--)); do
        line=${lines[index]}
        kind=${line%% *} path=${line#* }
        if [ "$kind" = d ]; then
            rmdir "$DESTDIR$path" 2>/dev/null || echo "kept $DESTDIR$path: it holds files of others"
        fi
    done
}

case "${1:-}" in
    install) [ $# = 3 ] || { sed -n '4,5p' "$0" >&2; exit 2; }; install_files "$2" "$3" ;;
    uninstall) [ $# = 1 ] || { sed -n '4,5p' "$0" >&2; exit 2; }; uninstall_files ;;
    *) sed -n '4,5p' "$0" >&2; exit 2 ;;
esac
