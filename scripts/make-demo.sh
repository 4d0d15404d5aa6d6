#!/usr/bin/env bash
# Regenerates the bundled demo podcast (Public/demo/**) and the Media Session
# keep-alive clip (Public/media/keepalive.*) from scratch.
#
# Why this exists: `make run` serves /demo/feed.xml so a new user hears real
# speech, sees artwork and chapters with no network at all. The output is
# committed; this script is run by hand (never by the build) when the episodes
# or the feed need to change:
#
#     scripts/make-demo.sh
#
# Needs: espeak-ng, sox, ffmpeg/ffprobe (libmp3lame, libvorbis), ImageMagick 6
# (`convert`) with the DejaVu fonts, python3, and optionally xmllint for the
# final check. Every number written into feed.xml (byte lengths, durations,
# chapter times) and every cue time of the transcripts is measured from the
# files this run produced, never typed in by hand.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DEMO="$ROOT/Public/demo"
MEDIA="$ROOT/Public/media"

# Fixed encoding parameters. Speech from espeak-ng is 22050 Hz mono already;
# 32 kbps MP3 (~4 KB/s) keeps the whole demo well under its 1.5 MB budget and
# still sounds clear for a synthetic voice.
RATE=22050
BITRATE=32k
VOICE="en-us+m3"
WPM=150
# Pause appended after every spoken segment, so chapters do not run into each
# other and an episode does not end mid-breath.
GAP=0.7

for tool in espeak-ng sox soxi ffmpeg ffprobe convert python3; do
  command -v "$tool" >/dev/null || { echo "make-demo: missing $tool" >&2; exit 1; }
done

# Month names and weekdays in pubDate must be English whatever the user's locale.
export LC_ALL=C

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

# From scratch: stale episodes from an earlier run must not survive.
rm -rf "$DEMO" "$MEDIA"/keepalive.*
mkdir -p "$DEMO/audio" "$DEMO/artwork" "$DEMO/transcripts" "$MEDIA"

# ---------------------------------------------------------------- helpers

# speak TEXT OUT.wav: one spoken segment with espeak-ng's leading silence cut
# (so a chapter starts exactly where its speech starts) and a GAP-second pause
# appended at the end.
speak() {
  espeak-ng -v "$VOICE" -s "$WPM" -w "$WORK/raw.wav" "$1"
  sox "$WORK/raw.wav" -r "$RATE" -c 1 -b 16 "$2" silence 1 0.02 0.5% pad 0 "$GAP"
}

# Escapes a value for ffmetadata (=, ;, #, \ and newline are special there).
meta_escape() {
  sed -e 's/[\\=;#]/\\&/g' <<<"$1"
}

# samples FILE.wav -> sample count (exact, so chapter times do not drift).
samples() { soxi -s "$1"; }

# ms SAMPLES -> milliseconds, floored.
ms() { echo $(( $1 * 1000 / RATE )); }

# build_episode NUMBER SLUG TITLE [CHAPTER_TITLE TEXT]...
# Speaks each (chapter title, text) pair, concatenates the segments and encodes
# one MP3 with ID3v2.3 tags. With more than one pair it also writes ID3 CHAP
# chapters whose starts are the sample offsets where each segment begins.
# Then the WebVTT transcript, a cue per sentence, each timed from the pauses in
# the segments' samples (scripts/demo-transcript.py says how).
build_episode() {
  local number="$1" slug="$2" title="$3"
  shift 3
  local meta="$WORK/$slug.ffmeta" segs=() starts=() names=() spoken=()
  local total=0 i=0
  while (($#)); do
    local seg="$WORK/$slug-$i.wav"
    speak "$2" "$seg"
    segs+=("$seg")
    spoken+=("$seg" "$2")
    starts+=("$total")
    names+=("$1")
    total=$(( total + $(samples "$seg") ))
    i=$(( i + 1 ))
    shift 2
  done
  sox "${segs[@]}" "$WORK/$slug.wav"
  echo "$total" >"$WORK/$slug.samples"

  {
    echo ";FFMETADATA1"
    echo "title=$(meta_escape "$title")"
    echo "artist=Earshot"
    echo "album=Earshot Demo"
    echo "track=$number"
    echo "date=2026"
    echo "genre=Podcast"
    if (( ${#segs[@]} > 1 )); then
      for ((i = 0; i < ${#segs[@]}; i++)); do
        local end=$total
        (( i + 1 < ${#segs[@]} )) && end=${starts[i + 1]}
        echo "[CHAPTER]"
        echo "TIMEBASE=1/1000"
        echo "START=$(ms "${starts[i]}")"
        echo "END=$(ms "$end")"
        echo "title=$(meta_escape "${names[i]}")"
      done
    fi
  } >"$meta"

  # -bitexact keeps ffmpeg's version string out of the tags, so rerunning the
  # script with the same tools gives byte-identical files (and a clean diff).
  # ID3v2.3 because more players read CHAP frames from 2.3 than from 2.4.
  ffmpeg -hide_banner -loglevel error -y \
    -i "$WORK/$slug.wav" -i "$meta" \
    -map 0:a -map_metadata 1 -map_chapters 1 \
    -c:a libmp3lame -b:a "$BITRATE" -ar "$RATE" -ac 1 \
    -id3v2_version 3 -write_id3v1 0 -bitexact \
    "$DEMO/audio/$slug.mp3"

  python3 "$ROOT/scripts/demo-transcript.py" --voice "$VOICE" --wpm "$WPM" \
    "$DEMO/transcripts/$slug.vtt" "${spoken[@]}"
}

# duration FILE -> seconds as ffprobe measures the file, rounded to whole seconds.
# ffprobe's figure runs a few frames past the decoded audio (encoder padding),
# so refuse a length where that would change the rounded value: players that
# decode (mpv) and readers that trust the header must agree with the feed.
duration() {
  local probed exact
  probed=$(ffprobe -v error -show_entries format=duration -of default=nw=1:nk=1 "$1" |
    awk '{ printf "%d\n", $1 + 0.5 }')
  exact=$(awk -v n="$(cat "$WORK/$(basename "$1" .mp3).samples")" -v r="$RATE" \
    'BEGIN { printf "%d\n", n / r + 0.5 }')
  if [[ "$probed" != "$exact" ]]; then
    echo "make-demo: $1 is ${exact}s decoded but ${probed}s to ffprobe; reword it" >&2
    exit 1
  fi
  echo "$probed"
}

# bytes FILE -> exact size for <enclosure length>.
bytes() { stat -c %s "$1"; }

# rfc822 "YYYY-MM-DD HH:MM" -> pubDate in UTC.
rfc822() { date -u -d "$1 UTC" '+%a, %d %b %Y %H:%M:%S +0000'; }

# ---------------------------------------------------------------- episodes
# Each episode names itself first, so a listener who jumps in knows what it is.

build_episode 1 01-welcome "Welcome to Earshot" \
  "Welcome to Earshot" \
  "Earshot Demo, episode one. Welcome to Earshot.
   Earshot is a podcast player for a computer with speakers, such as a desktop,
   a living room box, or a Raspberry Pi. One small program plays the audio on
   that machine, and serves a web page that any browser can use to control it.
   You are hearing this without any network connection: this demo podcast ships
   with Earshot, and Earshot serves it to itself.
   To add your own shows, subscribe by pasting a feed address, or import an
   O P M L file from your old podcast app. Earshot remembers where you stopped in
   every episode, keeps an Up Next queue, and can download episodes so they play
   offline.
   The next two episodes explain how to drive Earshot from your browser, and how
   to use your phone as a remote."

# The chapter episode: one segment per chapter, so chapter starts are exactly
# where each spoken part begins.
build_episode 2 02-browser "Driving Earshot from your browser" \
  "Introduction" \
  "Earshot Demo, episode two. Driving Earshot from your browser.
   This episode has chapters. Open the full player to see them, and jump
   straight to the one you want." \
  "Keyboard shortcuts" \
  "Keyboard shortcuts. Press the space bar to play or pause. The left and right
   arrow keys skip back or forward by fifteen seconds. Press the question mark
   key at any time to see every shortcut." \
  "The mini player" \
  "The mini player. The bar at the bottom of the window is the mini player. It
   stays there on every page, so you can browse your podcasts and still see what
   is playing, pause it, or skip. Click it to open the full player." \
  "The full player" \
  "The full player. The full player shows the episode artwork and a scrubber.
   Drag the scrubber to any point. The times beside it show how much you have
   heard, and how much remains. The speed control plays from half speed up to
   three times as fast, without changing the pitch of the voice. You will also
   find the volume, a sleep timer, the chapter list, and the queue."

build_episode 3 03-remote "Your phone as a remote" \
  "Your phone as a remote" \
  "Earshot Demo, episode three. Your phone as a remote.
   The sound always comes from the machine Earshot runs on. Your phone only sends
   commands, like a remote control.
   By default, Earshot answers only to the machine it runs on, so nobody else on
   your network can take over your speakers. To use a phone, start Earshot with
   local network access turned on, and open its address in the phone's browser.
   The first time, Earshot asks you to pair the phone.
   The page fits a small screen. Every phone, tablet and computer that is
   connected sees the same episode and the same position at the same moment.
   Once you have pressed play on the phone, its lock screen shows the episode,
   with play, pause and skip buttons. If that pauses other audio on your phone,
   you can turn it off for that one device."

# ---------------------------------------------------------------- artwork
# Gradient + simple shapes + DejaVu text; -strip drops timestamps and profiles
# so the JPEGs are small and reproducible.
JPEG=(-strip -sampling-factor 4:2:0 -interlace none -quality 80)

# Channel artwork: a loudspeaker sending sound waves, over a dusk gradient.
# wave R -> an open arc of radius R around (236,191), +-48 degrees, as a
# polyline: ImageMagick 6.9's arc, ellipse and SVG-path arcs all close the
# shape with a chord.
wave() {
  awk -v r="$1" 'BEGIN { for (a = -48; a <= 48; a += 4) {
    t = a * 3.14159265 / 180; printf "%.1f,%.1f ", 236 + r * cos(t), 191 + r * sin(t) } }'
}
ARC='stroke-linecap round stroke-linejoin round polyline'
convert -size 512x512 gradient:'#16325c-#e0673a' \
  -stroke none -fill white \
  -draw 'roundrectangle 150,160 186,222 6,6' \
  -draw 'polygon 180,166 232,124 232,258 180,216' \
  -fill none -strokewidth 14 \
  -stroke 'rgba(255,255,255,0.90)' -draw "$ARC $(wave 44)" \
  -stroke 'rgba(255,255,255,0.65)' -draw "$ARC $(wave 82)" \
  -stroke 'rgba(255,255,255,0.40)' -draw "$ARC $(wave 120)" \
  -stroke none -fill white \
  -font DejaVu-Sans-Bold -pointsize 76 -gravity center -annotate +0+130 'Earshot' \
  -font DejaVu-Sans -pointsize 34 -fill 'rgba(255,255,255,0.85)' -annotate +0+196 'DEMO PODCAST' \
  "${JPEG[@]}" "$DEMO/artwork/channel.jpg"

# Episode 2 artwork: the keys the episode talks about.
convert -size 512x512 gradient:'#0f4c4a-#1b2440' \
  -fill 'rgba(255,255,255,0.92)' \
  -draw 'roundrectangle 56,150 456,246 16,16' \
  -draw 'roundrectangle 56,270 152,366 16,16' \
  -draw 'roundrectangle 176,270 272,366 16,16' \
  -draw 'roundrectangle 296,270 456,366 16,16' \
  -fill '#1b2440' -font DejaVu-Sans-Bold -gravity northwest \
  -pointsize 40 -annotate +190+173 'space' \
  -pointsize 56 -annotate +75+282 '←' -annotate +195+282 '→' -annotate +356+282 '?' \
  -fill white -pointsize 40 -annotate +56+60 'Episode 2' \
  -font DejaVu-Sans -pointsize 30 -annotate +56+410 'Driving Earshot' \
  -annotate +56+448 'from your browser' \
  "${JPEG[@]}" "$DEMO/artwork/episode-02.jpg"

# ---------------------------------------------------------------- feed.xml
# Relative enclosure and image URLs: the server resolves them against the
# feed's own URL, so the demo works on any host and port.
A1="$DEMO/audio/01-welcome.mp3"
A2="$DEMO/audio/02-browser.mp3"
A3="$DEMO/audio/03-remote.mp3"
D1=$(duration "$A1") D2=$(duration "$A2") D3=$(duration "$A3")
# Three spellings of itunes:duration on purpose, so the parser's handling of
# each is exercised by the feed a user actually sees first.
DUR1=$(printf '%d:%02d:%02d' $((D1 / 3600)) $((D1 % 3600 / 60)) $((D1 % 60)))
DUR2=$(printf '%02d:%02d' $((D2 / 60)) $((D2 % 60)))
DUR3=$D3

cat >"$DEMO/feed.xml" <<EOF
<?xml version="1.0" encoding="UTF-8"?>
<!-- Generated by scripts/make-demo.sh; do not edit by hand. -->
<rss version="2.0"
     xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"
     xmlns:podcast="https://podcastindex.org/namespace/1.0">
  <channel>
    <title>Earshot Demo</title>
    <link>https://example.org/earshot/</link>
    <description><![CDATA[<p>A short tour of <b>Earshot</b>, spoken by a synthetic voice and bundled with the player so it works with no network.</p><p>Three episodes: what Earshot is, how to drive it from a browser, and how to use a phone as a remote. Subscribe to your own shows from the <a href="https://example.org/earshot/">add podcast</a> page.</p>]]></description>
    <language>en-us</language>
    <copyright>Made for the Earshot project</copyright>
    <generator>scripts/make-demo.sh</generator>
    <lastBuildDate>$(rfc822 "2026-01-19 09:00")</lastBuildDate>
    <image>
      <url>artwork/channel.jpg</url>
      <title>Earshot Demo</title>
      <link>https://example.org/earshot/</link>
    </image>
    <itunes:author>Earshot</itunes:author>
    <itunes:summary>A short spoken tour of Earshot, bundled with the player.</itunes:summary>
    <itunes:image href="artwork/channel.jpg"/>
    <itunes:category text="Technology"/>
    <itunes:explicit>false</itunes:explicit>
    <itunes:type>episodic</itunes:type>
    <podcast:locked>yes</podcast:locked>
    <podcast:medium>podcast</podcast:medium>
    <item>
      <title>Your phone as a remote</title>
      <description><![CDATA[<p>Use a phone, tablet or another computer as a remote: the sound stays on the machine Earshot runs on.</p><ul><li>Earshot listens only on this machine until you turn on local network access.</li><li>A new device must be paired first.</li><li>Every connected device shows the same episode and position.</li><li>Lock-screen controls, which you can turn off per device.</li></ul>]]></description>
      <guid isPermaLink="false">earshot-demo-03-remote</guid>
      <pubDate>$(rfc822 "2026-01-19 09:00")</pubDate>
      <podcast:transcript url="transcripts/03-remote.vtt" type="text/vtt" language="en"/>
      <enclosure url="audio/03-remote.mp3" length="$(bytes "$A3")" type="audio/mpeg"/>
      <itunes:duration>$DUR3</itunes:duration>
      <itunes:episode>3</itunes:episode>
      <itunes:episodeType>full</itunes:episodeType>
      <itunes:explicit>false</itunes:explicit>
    </item>
    <item>
      <title>Driving Earshot from your browser</title>
      <description><![CDATA[<p>The keyboard, the mini player and the full player. This episode has <b>chapters</b>:</p><ol><li>Introduction</li><li>Keyboard shortcuts: <kbd>Space</kbd> plays or pauses, <kbd>←</kbd> and <kbd>→</kbd> skip 15 seconds, <kbd>?</kbd> lists every shortcut</li><li>The mini player</li><li>The full player: scrubber, speed from 0.5× to 3×, volume, sleep timer, chapters and queue</li></ol>]]></description>
      <guid isPermaLink="false">earshot-demo-02-browser</guid>
      <pubDate>$(rfc822 "2026-01-12 09:00")</pubDate>
      <podcast:transcript url="transcripts/02-browser.vtt" type="text/vtt" language="en"/>
      <enclosure url="audio/02-browser.mp3" length="$(bytes "$A2")" type="audio/mpeg"/>
      <itunes:duration>$DUR2</itunes:duration>
      <itunes:image href="artwork/episode-02.jpg"/>
      <itunes:episode>2</itunes:episode>
      <itunes:episodeType>full</itunes:episodeType>
      <itunes:explicit>false</itunes:explicit>
    </item>
    <item>
      <title>Welcome to Earshot</title>
      <description><![CDATA[<p>What Earshot is: a podcast player for a machine with speakers, driven from any browser.</p><p>Subscribe by feed address or import an OPML file; Earshot remembers your place, keeps an <i>Up Next</i> queue and downloads episodes for offline listening. Read more on the <a href="https://example.org/earshot/">project page</a>.</p>]]></description>
      <guid isPermaLink="false">earshot-demo-01-welcome</guid>
      <pubDate>$(rfc822 "2026-01-05 09:00")</pubDate>
      <podcast:transcript url="transcripts/01-welcome.vtt" type="text/vtt" language="en"/>
      <enclosure url="audio/01-welcome.mp3" length="$(bytes "$A1")" type="audio/mpeg"/>
      <itunes:duration>$DUR1</itunes:duration>
      <itunes:episode>1</itunes:episode>
      <itunes:episodeType>full</itunes:episodeType>
      <itunes:explicit>false</itunes:explicit>
    </item>
  </channel>
</rss>
EOF

cat >"$DEMO/README.md" <<'EOF'
# Earshot demo podcast

The podcast `make run` serves at `/demo/feed.xml`, so a new user hears speech with no network: three short spoken episodes (espeak-ng), one with ID3 chapters, each with a WebVTT transcript timed sentence by sentence from its audio, plus artwork (ImageMagick).
Everything here is generated by `scripts/make-demo.sh` (run by hand; the output is committed); edit the script, not these files.
License: made for the Earshot project; same license as the project.
EOF

# ---------------------------------------------------------------- keep-alive
# The browser only routes media keys / lock-screen controls to a page that is
# playing audible media (Chrome treats digital silence as inaudible; Firefox
# ignores pure silence). So: 5 s of pink noise at about -60 dBFS RMS — above
# Chrome's audibility threshold (~-72 dBFS), far below anything you would hear
# over a room. No fades: the clip loops, and noise joins itself without a click.
# sox -R seeds the noise generator, so reruns give identical bytes.
sox -R -n -r "$RATE" -c 1 -b 16 "$WORK/keepalive.wav" synth 5 pinknoise vol 0.005
ffmpeg -hide_banner -loglevel error -y -i "$WORK/keepalive.wav" \
  -c:a libmp3lame -b:a "$BITRATE" -ar "$RATE" -ac 1 \
  -metadata title="Earshot keep-alive" -id3v2_version 3 -write_id3v1 0 -bitexact \
  "$MEDIA/keepalive.mp3"
ffmpeg -hide_banner -loglevel error -y -i "$WORK/keepalive.wav" \
  -c:a libvorbis -q:a 0 -ac 1 -bitexact \
  "$MEDIA/keepalive.ogg"

# ---------------------------------------------------------------- checks
if command -v xmllint >/dev/null; then
  xmllint --noout "$DEMO/feed.xml"
fi
chapters=$(ffprobe -v error -show_chapters -of csv=p=0 "$A2" | wc -l)
(( chapters >= 3 )) || { echo "make-demo: $A2 has $chapters chapters" >&2; exit 1; }
for slug in 01-welcome 02-browser 03-remote; do
  cues=$(grep -c -- ' --> ' "$DEMO/transcripts/$slug.vtt")
  (( cues >= 5 )) || { echo "make-demo: $slug.vtt has $cues cues" >&2; exit 1; }
done
echo "make-demo: $(du -cb "$DEMO" | tail -1 | cut -f1) bytes in Public/demo;" \
  "durations ${D1}s ${D2}s ${D3}s"
