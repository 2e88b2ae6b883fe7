#include <PCSC/winscard.h>
#include <PCSC/reader.h>
