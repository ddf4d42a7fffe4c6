#!/usr/bin/env bash
# deb.sh - turn a staged `make install PREFIX=/usr DESTDIR=STAGE` into a Debian package in
# OUTDIR, then check it with lintian: an error or a warning fails (it overrides none; its
# informational tags are printed: the static runtime's strings and hardening flags).
#
# usage: deb.sh STAGE OUTDIR
#
# From the environment, optional: DEB_MAINTAINER (default: the author of the last commit).
# The version is the one notify prints (notify --version); the architecture is dpkg's; Depends
# is computed by dpkg-shlibdeps from the libraries notify is linked with.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
[ $# = 2 ] || { sed -n '6p' "$0" >&2; exit 2; }
stage=$(cd "$1" && pwd)
outdir=$(cd "$2" && pwd)
package=desktopnotifications
doc=$stage/usr/share/doc/$package

notify=$stage/usr/bin/notify
[ -x "$notify" ] || { echo "deb.sh: no $notify (stage the install first)" >&2; exit 1; }
version=$("$notify" --version | awk '{print $2}')
[ -n "$version" ] || { echo "deb.sh: notify --version printed no version" >&2; exit 1; }
architecture=$(dpkg --print-architecture)
maintainer=${DEB_MAINTAINER:-$(git -C "$here/.." log -1 --format='%an <%ae>')}
date=$(git -C "$here/.." log -1 --format=%cD)
commit=$(git -C "$here/.." rev-parse --short HEAD)

# dpkg keeps the list of installed files: make install's manifest has no place in the package.
rm -rf "$stage/usr/share/desktopnotifications"
# What Debian's policy asks of a binary package: a stripped program, compressed manual pages,
# a copyright file and a changelog.
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$notify"
gzip -9n "$stage"/usr/share/man/man1/*.1
install -d -m 755 "$doc"
install -m 644 "$here/deb/copyright" "$doc/copyright"
cat <<EOF | gzip -9n > "$doc/changelog.gz"
$package ($version) unstable; urgency=medium

  * Built from the DesktopNotifications repository at commit $commit.

 -- $maintainer  $date
EOF
chmod 644 "$doc/changelog.gz"

# dpkg-shlibdeps reads debian/control from the directory it runs in.
work=$(mktemp -d "$outdir/shlibdeps.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir "$work/debian"
printf 'Source: %s\n\nPackage: %s\nArchitecture: any\n' "$package" "$package" > "$work/debian/control"
depends=$(cd "$work" && dpkg-shlibdeps -O "$notify" | sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || { echo "deb.sh: dpkg-shlibdeps found no dependencies" >&2; exit 1; }
# Packed relative relocations (DT_RELR) need glibc 2.36; libc6's symbols file does not say so.
if readelf -V "$notify" | grep -q GLIBC_ABI_DT_RELR; then
    depends=$(sed 's/libc6 (>= [0-9.]*)/libc6 (>= 2.36)/' <<< "$depends")
fi

install -d -m 755 "$stage/DEBIAN"
installed_size=$(du -sk --exclude=DEBIAN "$stage" | cut -f1)
cat > "$stage/DEBIAN/control" <<EOF
Package: $package
Version: $version
Architecture: $architecture
Maintainer: $maintainer
Installed-Size: $installed_size
Depends: $depends
Recommends: default-dbus-session-bus | dbus-session-bus, dbus-daemon
Section: utils
Priority: optional
Description: desktop notifications from the command line and for Swift programs
 notify shows a notification through the desktop's notification server over
 D-Bus: a drop-in for notify-send (same options) that can also wait for an
 action or a reply, print JSON, schedule a notification for later, list and
 close notifications, and show them in the terminal when there is no desktop.
 .
 It carries the per-user notification agent (notify agent), started by the
 session bus or as the systemd user service desktopnotifications-agent, with
 the bash, zsh and fish completions and the manual pages.
EOF
(cd "$stage" && find usr -type f -print0 | sort -z | xargs -0 md5sum) > "$stage/DEBIAN/md5sums"
chmod 644 "$stage/DEBIAN/control" "$stage/DEBIAN/md5sums"

deb=$outdir/${package}_${version}_${architecture}.deb
dpkg-deb --root-owner-group -Zxz --build "$stage" "$deb"
echo "deb.sh: $deb ($(du -h "$deb" | cut -f1))"
lintian --fail-on error,warning --display-info "$deb"
echo "deb.sh: lintian: no error, no warning"
