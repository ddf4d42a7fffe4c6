#!/bin/sh
# packaging/static/libs.sh DIR: what the installed notify links statically beside the Swift
# runtime, put in DIR for `make release`:
#
#   libdbus-1.a    libdbus (libdbus-1-dev), so that notify does not load libdbus-1.so and
#                  libsystemd with the six libraries libsystemd loads;
#   libstdc++.a    the C++ runtime the Swift runtime uses (libstdc++-12-dev, which the Swift
#                  toolchain needs), so that libstdc++.so's relocations are not done at start;
#   dbus-1.pc      read by SwiftPM (PKG_CONFIG_PATH=DIR) in place of the system's: libdbus's
#                  headers, and -L DIR, so that -ldbus-1 and -lstdc++ find the two archives;
#   sd-activation.o  sd_listen_fds and sd_is_socket, which libdbus-1.a calls and libsystemd
#                  would give (sd-activation.c says why they are ours), checked first by
#                  sd-activation-test.c.
#
# Fails, naming the package, when an archive is missing.
set -eu
[ $# -eq 1 ] || { echo "usage: packaging/static/libs.sh DIR" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
out=$1
command -v swiftc > /dev/null || { echo "static/libs.sh: swiftc is not on PATH" >&2; exit 1; }
# The toolchain's own clang, a C compiler every machine that builds notify has: beside swiftc
# in the toolchain's bin folder, found from its resource folder (swiftc on PATH can be a proxy,
# as swiftly installs it), else the system's cc.
resources=$(swiftc -print-target-info | sed -n 's/^ *"runtimeResourcePath": *"\(.*\)",*$/\1/p')
clang=${resources%/lib/swift}/bin/clang
if [ -z "$resources" ] || [ ! -x "$clang" ]; then
    clang=$(command -v cc) || { echo "static/libs.sh: no C compiler (the toolchain's clang, or cc)" >&2; exit 1; }
fi

find_archive() { # NAME PACKAGE
    path=$("$clang" -print-file-name="$1")
    case $path in
        /*) [ -f "$path" ] && { echo "$path"; return; } ;;
    esac
    echo "static/libs.sh: $1 is missing; install $2" >&2
    exit 1
}
dbus=$(find_archive libdbus-1.a libdbus-1-dev)
stdcxx=$(find_archive libstdc++.a libstdc++-12-dev)
libdir=$(dirname "$dbus")
for header in /usr/include/dbus-1.0/dbus/dbus.h "$libdir/dbus-1.0/include/dbus/dbus-arch-deps.h"; do
    [ -f "$header" ] || { echo "static/libs.sh: $header is missing; install libdbus-1-dev" >&2; exit 1; }
done

mkdir -p "$out"
out=$(cd "$out" && pwd)
ln -sf "$dbus" "$out/libdbus-1.a"
ln -sf "$stdcxx" "$out/libstdc++.a"
"$clang" -O2 -fPIC -Wall -Werror -c "$here/sd-activation.c" -o "$out/sd-activation.o"
"$clang" -O2 -Wall -Werror "$here/sd-activation-test.c" "$out/sd-activation.o" -o "$out/sd-activation-test"
"$out/sd-activation-test" || { echo "static/libs.sh: sd-activation.c failed its checks" >&2; exit 1; }
cat > "$out/dbus-1.pc" <<PC
Name: dbus-1
Description: libdbus, linked static into the installed notify (packaging/static/libs.sh)
Version: $(sed -n 's/^Version: *//p' "$libdir/pkgconfig/dbus-1.pc" 2>/dev/null || echo unknown)
Cflags: -I/usr/include/dbus-1.0 -I$libdir/dbus-1.0/include
Libs: -L$out -ldbus-1
PC
