// libyaml from Debian's libyaml-dev (pkg-config yaml-0.1). Install: apt-get install libyaml-dev
#include <yaml.h>
