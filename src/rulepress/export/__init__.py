"""Exports: the kit's faces for Tabletop Simulator (tts) and print-on-demand houses (tgc, mpc,
dtc). ``export.generator`` is the command's generator on the pipeline; the other modules draw,
place and write the files it makes."""
