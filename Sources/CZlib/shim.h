// zlib (Debian's zlib1g-dev): raw inflate and CRC-32 for ZIP archives of card dumps.
#include <zlib.h>
