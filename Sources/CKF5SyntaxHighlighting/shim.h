// KDE's KSyntaxHighlighting (Debian libkf5syntaxhighlighting-dev) and Qt 5 Core: a C++ library, so
// Swift reaches it only through the CKSyntaxHighlighting shim. This module names the libraries to
// link and the Debian packages that provide them; its one header is plain C (version macros).
#include <KF5/KSyntaxHighlighting/ksyntaxhighlighting_version.h>
