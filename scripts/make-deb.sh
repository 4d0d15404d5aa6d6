#!/usr/bin/env bash
# Builds the Debian package of Earshot from a binary that has the Swift runtime linked in
# (`swift build -c release --product earshot --static-swift-stdlib`):
#   scripts/make-deb.sh BINARY OUTDIR      (run by `make deb`)
# Writes OUTDIR/earshot_VERSION-REVISION_ARCH.deb holding
#   /usr/bin/earshot, /usr/share/earshot/{Public,Templates}, /usr/lib/systemd/user/earshot.service,
#   /usr/share/man/man1/earshot.1.gz, /usr/share/doc/earshot/{copyright,changelog.Debian.gz,
#   earshot.conf.example}
# with Depends computed by dpkg-shlibdeps, then runs lintian on it: an error (E:) fails the build.
# Environment: VERSION (default: Sources/EarshotCore/Support/Version.swift's, else 0.1.0),
# DEB_REVISION (1), MAINTAINER ("Name <address>"; default from DEBFULLNAME/DEBEMAIL),
# SOURCE_DATE_EPOCH (the changelog's date and the files' times; default: now).
set -euo pipefail

if [ $# -ne 2 ]; then
    echo "usage: $0 BINARY OUTDIR" >&2
    exit 2
fi
binary=$1
outdir=$2
repo=$(cd "$(dirname "$0")/.." && pwd)

for tool in dpkg-deb dpkg-shlibdeps lintian strip readelf md5sum; do
    command -v "$tool" >/dev/null || {
        echo "make-deb: $tool is missing (sudo apt-get install dpkg-dev lintian binutils)" >&2
        exit 1
    }
done
[ -x "$binary" ] || { echo "make-deb: $binary is not an executable" >&2; exit 1; }

# A binary that needs the Swift runtime from the toolchain (/opt/swift) would not start on a
# machine without it, and no Debian package provides those libraries.
if readelf -d "$binary" | grep -E 'NEEDED.*\[lib(swift[^]]*|dispatch|BlocksRuntime|Foundation[^]]*|_Foundation[^]]*)\.so' >&2; then
    echo "make-deb: $binary links the Swift runtime dynamically (above); build it with --static-swift-stdlib" >&2
    exit 1
fi

version=${VERSION:-}
if [ -z "$version" ]; then
    version=$(sed -n 's/.*static let version = "\([^"]*\)".*/\1/p' "$repo/Sources/EarshotCore/Support/Version.swift" 2>/dev/null || true)
    version=${version:-0.1.0}
fi
revision=${DEB_REVISION:-1}
full_version=$version-$revision
arch=$(dpkg --print-architecture)
maintainer=${MAINTAINER:-"${DEBFULLNAME:-Earshot Maintainers} <${DEBEMAIL:-earshot@example.org}>"}
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(date +%s)}

work=$(mktemp -d "${TMPDIR:-/tmp}/earshot-deb.XXXXXX")
trap 'rm -rf "$work"' EXIT
# The package's tree sits where dpkg-shlibdeps expects it: a source tree's debian/PACKAGE.
root=$work/src/debian/earshot
umask 022

# The files.
install -d "$root/DEBIAN" "$root/usr/bin" "$root/usr/share/earshot" "$root/usr/lib/systemd/user" \
    "$root/usr/share/man/man1" "$root/usr/share/doc/earshot" "$root/usr/share/lintian/overrides"
# Stripped as dh_strip does; .swift_ast is the debugger's copy of the Swift modules.
strip --remove-section=.comment --remove-section=.note --remove-section=.swift_ast --strip-unneeded \
    -o "$root/usr/bin/earshot" "$binary"
chmod 755 "$root/usr/bin/earshot"
cp -R --no-preserve=mode,ownership "$repo/Public" "$repo/Templates" "$root/usr/share/earshot/"
install -m 644 "$repo/packaging/earshot.service" "$root/usr/lib/systemd/user/earshot.service"
gzip -9n < "$repo/packaging/earshot.1" > "$root/usr/share/man/man1/earshot.1.gz"
install -m 644 "$repo/packaging/earshot.conf.example" "$root/usr/share/doc/earshot/earshot.conf.example"
grep -v '^#' "$repo/packaging/earshot.lintian-overrides" > "$root/usr/share/lintian/overrides/earshot"
chmod 644 "$root/usr/share/lintian/overrides/earshot"

changelog_date=$(date -u -R -d "@$SOURCE_DATE_EPOCH")
cat > "$work/changelog" <<EOF
earshot ($full_version) unstable; urgency=medium

  * Built from the Earshot source tree by \`make deb\` (version $version).

 -- $maintainer  $changelog_date
EOF
gzip -9n < "$work/changelog" > "$root/usr/share/doc/earshot/changelog.Debian.gz"

# The source tree has no LICENSE file: the package says MIT until the project names its license
# (then change it here). The binary also holds the Swift runtime, Foundation and ICU, linked in.
year=$(date -u +%Y -d "@$SOURCE_DATE_EPOCH")
cat > "$root/usr/share/doc/earshot/copyright" <<EOF
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: Earshot
Upstream-Contact: $maintainer
Comment: usr/bin/earshot has the Swift runtime (swift-corelibs: the standard library,
 Concurrency, Dispatch, Foundation) linked in, under the Apache-2.0 license with the Runtime
 Library Exception, and with it ICU's data, under the Unicode license; see the paragraphs below.

Files: *
Copyright: $year The Earshot authors
License: MIT

Files: usr/bin/earshot
Copyright: $year The Earshot authors
 2014-$year Apple Inc. and the Swift project authors
 1991-$year Unicode, Inc.
License: MIT and Apache-2.0 with Swift-Runtime-Library exception and Unicode-3.0

License: MIT
 Permission is hereby granted, free of charge, to any person obtaining a copy
 of this software and associated documentation files (the "Software"), to deal
 in the Software without restriction, including without limitation the rights
 to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
 copies of the Software, and to permit persons to whom the Software is
 furnished to do so, subject to the following conditions:
 .
 The above copyright notice and this permission notice shall be included in
 all copies or substantial portions of the Software.
 .
 THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
 IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
 FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
 AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
 LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
 OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN
 THE SOFTWARE.

License: Apache-2.0 with Swift-Runtime-Library exception
 Licensed under the Apache License, Version 2.0 (the "License"); you may not
 use this file except in compliance with the License. You may obtain a copy of
 the License at http://www.apache.org/licenses/LICENSE-2.0
 .
 Unless required by applicable law or agreed to in writing, software
 distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
 WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the
 License for the specific language governing permissions and limitations under
 the License.
 .
 On Debian systems, the complete text of the Apache License, Version 2.0 can be
 found in "/usr/share/common-licenses/Apache-2.0".
 .
 Runtime Library Exception to the Apache 2.0 License:
 .
 As an exception, if you use this Software to compile your source code and
 portions of this Software are embedded into the binary product as a result,
 you may redistribute such product without providing attribution as would
 otherwise be required by Sections 4(a), 4(b) and 4(d) of the License.

License: Unicode-3.0
 Permission is hereby granted, free of charge, to any person obtaining a copy
 of data files and any associated documentation (the "Data Files") or software
 and any associated documentation (the "Software") to deal in the Data Files or
 Software without restriction, including without limitation the rights to use,
 copy, modify, merge, publish, distribute, and/or sell copies of the Data Files
 or Software, and to permit persons to whom the Data Files or Software are
 furnished to do so, provided that either (a) this copyright and permission
 notice appear with all copies of the Data Files or Software, or (b) this
 copyright and permission notice appear in associated Documentation.
 .
 THE DATA FILES AND SOFTWARE ARE PROVIDED "AS IS", WITHOUT WARRANTY OF ANY
 KIND, EXPRESS OR IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF
 MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT OF
 THIRD PARTY RIGHTS.
 .
 IN NO EVENT SHALL THE COPYRIGHT HOLDER OR HOLDERS INCLUDED IN THIS NOTICE BE
 LIABLE FOR ANY CLAIM, OR ANY SPECIAL INDIRECT OR CONSEQUENTIAL DAMAGES, OR ANY
 DAMAGES WHATSOEVER RESULTING FROM LOSS OF USE, DATA OR PROFITS, WHETHER IN AN
 ACTION OF CONTRACT, NEGLIGENCE OR OTHER TORTIOUS ACTION, ARISING OUT OF OR IN
 CONNECTION WITH THE USE OR PERFORMANCE OF THE DATA FILES OR SOFTWARE.
 .
 Except as contained in this notice, the name of a copyright holder shall not
 be used in advertising or otherwise to promote the sale, use or other dealings
 in these Data Files or Software without prior written authorization of the
 copyright holder.
EOF

# Depends: dpkg-shlibdeps reads the binary's NEEDED libraries and asks dpkg which packages (and
# which versions, from their symbols files) provide them. It wants a source tree's debian/control.
cat > "$work/src/debian/control" <<EOF
Source: earshot
Maintainer: $maintainer

Package: earshot
Architecture: any
EOF
depends=$(cd "$work/src" && dpkg-shlibdeps -O -e"debian/earshot/usr/bin/earshot" | sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || { echo "make-deb: dpkg-shlibdeps found no dependencies" >&2; exit 1; }
# libmpv is loaded with dlopen when the player starts (Sources/CMPV/include/shim.h), so it is not among
# the binary's NEEDED libraries: its dependency is the one libmpv2's shlibs file declares for its soname.
libmpv_depends=$(dpkg-query --control-show libmpv2 shlibs 2>/dev/null | awk '$1 == "libmpv" && $2 == "2" { $1 = ""; $2 = ""; sub(/^ +/, ""); print; exit }')
[ -n "$libmpv_depends" ] || { echo "make-deb: libmpv2's shlibs file names no dependency (is libmpv2 installed?)" >&2; exit 1; }
depends="$depends, $libmpv_depends"

installed_size=$(du -sk --apparent-size "$root/usr" | cut -f1)
cat > "$root/DEBIAN/control" <<EOF
Package: earshot
Version: $full_version
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $installed_size
Depends: $depends
Section: sound
Priority: optional
Description: podcast player for a machine with speakers, driven from a browser
 Earshot plays podcasts on this machine's speakers (through libmpv) and
 serves a web page that drives it: the machine's own browser, or a phone on
 the LAN paired as a remote. Subscriptions, queue, playlists, downloads for
 offline listening, chapters, transcripts, search and a sleep timer.
 .
 It runs as a systemd user service: systemctl --user enable --now earshot.
EOF

(cd "$root" && find usr -type f -print0 | LC_ALL=C sort -z | xargs -0 md5sum) > "$root/DEBIAN/md5sums"
chmod 644 "$root/DEBIAN/md5sums" "$root/DEBIAN/control"

# Reproducible: every file dated SOURCE_DATE_EPOCH (dpkg-deb clamps to it too).
find "$root" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
mkdir -p "$outdir"
deb=$outdir/earshot_${full_version}_$arch.deb
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >/dev/null
echo "make-deb: built $deb"
echo "make-deb: Depends: $depends"

# lintian: errors fail the build; warnings and notes are printed. Overrides, each with its reason:
# packaging/earshot.lintian-overrides (installed as /usr/share/lintian/overrides/earshot).
# (It exits 1 when it found errors, and also when it could not check the package at all.)
lintian_status=0
lintian_output=$(lintian --display-info "$deb" 2>&1) || lintian_status=$?
lintian_output=$(grep -v '^running with root privileges' <<<"$lintian_output" || true)
# Its spelling notes on the binary are about strings of the libraries linked in (ICU, curl, ...),
# none of Earshot's own.
spelling=$(grep -c 'spelling-error-in-binary' <<<"$lintian_output" || true)
grep -v 'spelling-error-in-binary' <<<"$lintian_output" | grep . || true
[ "$spelling" -eq 0 ] || echo "make-deb: lintian: $spelling spelling-error-in-binary notes (I:) not shown"
if grep -q '^E: ' <<<"$lintian_output"; then
    echo "make-deb: lintian found errors in $deb" >&2
    exit 1
elif [ "$lintian_status" -ne 0 ]; then
    echo "make-deb: lintian could not check $deb (exit status $lintian_status)" >&2
    exit 1
fi
echo "make-deb: lintian: no errors"
