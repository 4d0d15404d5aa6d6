#!/bin/bash
# Builds the libFuzzer target for the feed parser and the show-notes sanitizer (`make fuzz`; not in CI).
# Usage: Fuzz/build.sh [OUTPUT_DIR]   (default .build/fuzz; run from the repository root)
set -euo pipefail
out=${1:-.build/fuzz}
swiftc=${SWIFTC:-$(command -v swiftc || echo /opt/swift/usr/bin/swiftc)}
flags=(-sanitize=fuzzer,address -parse-as-library -g -O -I "$out" -I Sources/CLibXML2 -Xcc -I/usr/include/libxml2)
mkdir -p "$out"
"$swiftc" "${flags[@]}" -module-name EarshotCore -emit-module -emit-module-path "$out/EarshotCore.swiftmodule" \
    -c $(find Sources/EarshotCore -name '*.swift' | sort) -wmo -o "$out/EarshotCore.o"  # in folders by concern
"$swiftc" "${flags[@]}" -enable-testing -module-name Feeds -emit-module -emit-module-path "$out/Feeds.swiftmodule" \
    -c Sources/Feeds/*.swift -wmo -o "$out/Feeds.o"
"$swiftc" "${flags[@]}" -module-name FeedsFuzz Fuzz/FeedsFuzz/*.swift "$out/EarshotCore.o" "$out/Feeds.o" \
    -lxml2 -use-ld=lld -o "$out/feeds-fuzz"
echo "built $out/feeds-fuzz"
