#!/bin/sh
# Makes the demo media the first start stores (apps/server/src/db/seed/demo-media/), once, with
# Debian tools: apt-get install -y ffmpeg chromium fonts-wqy-microhei poppler-utils.
# The files are committed; run this only to change them, and keep each small (the repository carries them).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out="$here/../../apps/server/src/db/seed/demo-media"
font=/usr/share/fonts/truetype/wqy/wqy-microhei.ttc
mkdir -p "$out"

# 8 s of a moving test picture with a title, a quiet 440 Hz tone, H.264/AAC, index first (+faststart).
ffmpeg -hide_banner -loglevel error -y \
  -f lavfi -i "testsrc2=size=640x360:rate=25:duration=8" \
  -f lavfi -i "sine=frequency=440:sample_rate=44100:duration=8" \
  -vf "drawtext=fontfile=$font:text='安全培训 Safety training':fontsize=36:fontcolor=white:box=1:boxcolor=black@0.6:boxborderw=10:x=(w-tw)/2:y=h-th-30" \
  -c:v libx264 -preset veryslow -crf 30 -pix_fmt yuv420p -profile:v main \
  -c:a aac -b:a 32k -ac 1 -movflags +faststart -shortest "$out/safety-intro.mp4"

# The 4-page handbook, printed by headless Chromium (fonts subset, so the PDF stays small).
chromium --headless --no-sandbox --disable-gpu --no-pdf-header-footer \
  --print-to-pdf="$out/safety-handbook.pdf" "$here/safety-handbook.html"

# The communication course's 3-page meeting handbook.
chromium --headless --no-sandbox --disable-gpu --no-pdf-header-footer \
  --print-to-pdf="$out/meeting-handbook.pdf" "$here/meeting-handbook.html"

# The learners' user guide the download page offers (2 pages).
chromium --headless --no-sandbox --disable-gpu --no-pdf-header-footer \
  --print-to-pdf="$out/user-guide.pdf" "$here/user-guide.html"

# Course covers, 640x360: a gradient with the title in Chinese and English.
cover() { # name, Chinese title, English title, two colours
  ffmpeg -hide_banner -loglevel error -y \
    -f lavfi -i "gradients=size=640x360:c0=$4:c1=$5:x0=0:y0=0:x1=640:y1=360:nb_colors=2:duration=1:rate=1" \
    -vf "drawtext=fontfile=$font:text='$2':fontsize=56:fontcolor=white:x=48:y=130,drawtext=fontfile=$font:text='$3':fontsize=30:fontcolor=white@0.9:x=50:y=210,drawbox=x=48:y=196:w=120:h=4:color=white@0.8:t=fill" \
    -frames:v 1 -q:v 4 "$out/$1.jpg"
}
cover cover-safety '安全生产培训' 'Workplace safety' 0x1e3a8a 0x0ea5e9
cover cover-onboarding '新员工入职' 'Onboarding essentials' 0x065f46 0x84cc16
cover cover-infosec '信息安全意识' 'Information security' 0x7c2d12 0xf59e0b

pdfinfo "$out/safety-handbook.pdf" | grep Pages
pdfinfo "$out/meeting-handbook.pdf" | grep Pages
pdfinfo "$out/user-guide.pdf" | grep Pages
ls -l "$out"
