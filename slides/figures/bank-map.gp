# bank-map.gp: which bank holds each element of a 32-row float tile, for rows
# of 32 words (tile[32][32]) and of 33 words (tile[32][33]). A warp reading
# column 0 (outlined) touches one bank 32 times, or 32 different banks.
# the size it is shown at on a 1280 x 720 slide (its h: in the deck), every text 17 px or more
set terminal svg size 1120,400 dynamic noenhanced font "Helvetica,18" background "white"
set multiplot layout 1,2
set size ratio -1
set xrange [-0.5:32.5]
set yrange [31.5:-0.5]
set cbrange [0:31]
set palette defined (0 "#440154", 8 "#3b528b", 16 "#21918c", 24 "#5ec962", 31 "#fde725")
set xtics ("0" 0, "8" 8, "16" 16, "24" 24, "31" 31) out nomirror
set ytics ("0" 0, "8" 8, "16" 16, "24" 24, "31" 31) out nomirror
set xlabel "column k (word in the row)"
set ylabel "row i (the lane that reads it)"
unset colorbox
# the bank of every element: $pitch32 for tile[32][32], $pitch33 for tile[32][33]
set print $pitch32
do for [i=0:31] { do for [k=0:31] { print sprintf("%d %d %d", k, i, (i * 32 + k) % 32) }; print "" }
set print $pitch33
do for [i=0:31] { do for [k=0:32] { print sprintf("%d %d %d", k, i, (i * 33 + k) % 32) }; print "" }
unset print
set object 1 rect from -0.5,-0.5 to 0.5,31.5 fs empty border lc rgb "black" lw 3 front
set title "tile[32][32]: word i*32+k is in bank k\ncolumn 0: bank 0, 32 times (32-way conflict)" offset 0,1
plot $pitch32 using 1:2:3 with image pixels notitle
set label 1 "pad" at 32,-1.2 center font ",17"
set title "tile[32][33]: word i*33+k is in bank (i+k) % 32\ncolumn 0: 32 different banks (no conflict)" offset 0,1
plot $pitch33 using 1:2:3 with image pixels notitle
unset multiplot
