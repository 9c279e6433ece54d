"""Short domain texts a person or a system really sends, for fields no library fills well.

Faker's text providers write lorem ipsum; these are what a support agent, a developer or an
operator types into a field of that kind. Each tuple is one kind of field; a value is picked by
hash (see :mod:`whileai_env.world.meaning`), and a few are templates filled from the spec's own
vocabulary (a table, a directory the system prompt names).
"""

from __future__ import annotations

SEARCH_QUERIES = (
    "refund not received",
    "login timeout after update",
    "invoice overdue",
    "password reset email",
    "shipping delay",
    "duplicate charge",
    "account locked",
    "billing address change",
    "api rate limit",
    "export to csv",
    "two-factor authentication",
    "cancel subscription",
)
WEB_QUERIES = (
    "best hiking trails near Denver",
    "python asyncio timeout example",
    "weather in Lisbon this weekend",
    "how to renew a UK passport",
    "postgres vacuum full vs analyze",
    "cheap flights Berlin to Rome in May",
    "react useEffect cleanup function",
    "average rent in Austin 2026",
)
CODE_QUERIES = (
    "def parse_config",
    "TODO",
    "retry_with_backoff",
    "class UserService",
    "import requests",
    "raise ValueError",
    "useState",
    "load_settings",
)
ISSUE_TITLES = (
    "Login fails with 500 after password reset",
    "CSV export drops the last row",
    "Dark mode toggle not saved",
    "Crash when uploading files over 2 GB",
    "Typo in onboarding email",
    "Search ignores accented characters",
    "Add retry to webhook delivery",
    "Timezone shown as UTC on invoices",
)
#: What an on-call page says broke (PagerDuty, Opsgenie): a service and its symptom.
OUTAGE_TITLES = (
    "Checkout API 5xx rate above 5%",
    "High p99 latency on payments-gateway",
    "Disk usage above 90% on db-primary-2",
    "Login service health check failing",
    "Kafka consumer lag growing on orders-events",
    "SSL certificate expiring on api.example.com",
    "Error budget burn on search-service",
)
PR_TITLES = (
    "Fix pagination off-by-one",
    "Add retry to HTTP client",
    "Bump dependencies",
    "Refactor config loading",
    "Handle empty responses in the parser",
    "Speed up CSV export",
)
COMMENTS = (
    "Reproduced on the latest build; attaching logs.",
    "Looks good to me, merging after CI passes.",
    "Can you add a test for the empty case?",
    "Customer confirmed the fix works.",
    "Waiting on a reply from the warehouse.",
    "Escalating to the platform team.",
)
CHAT_MESSAGES = (
    "Deploy finished, all checks green.",
    "Standup moved to 10:30 today.",
    "Can someone review my PR?",
    "The staging database is back up.",
    "Reminder: release notes are due Friday.",
    "Lunch order closes at noon.",
)
DESCRIPTIONS = (
    "Customer reports the page hangs after submitting the form.",
    "Quarterly report for the finance team.",
    "Steps to reproduce are in the attached log.",
    "Follow-up to last week's review meeting.",
)
REASONS = (
    "it arrived damaged",
    "I was charged twice",
    "it never arrived",
    "I changed my mind",
    "wrong size",
    "no longer needed",
    "ordered by mistake",
)
TAGS = ("bug", "urgent", "billing", "frontend", "backend", "documentation", "customer", "q4")
LABELS = ("app=web", "env=production", "team=payments", "tier=backend")
SHELL_COMMANDS = (
    ("ls", "-la"),
    ("git", "status"),
    ("pytest", "-q"),
    ("npm", "test"),
    ("df", "-h"),
    ("cat", "README.md"),
    ("grep", "-rn", "TODO", "src"),
    ("python", "--version"),
    ("make", "build"),
    ("du", "-sh", "."),
)
JS_SNIPPETS = (
    "document.title",
    "document.querySelectorAll('a').length",
    "window.location.href",
    "document.querySelector('h1').innerText",
)
PY_SNIPPETS = ("print(sum(range(10)))", "import sys; print(sys.version)", "print('hello')")
REGEXES = (r"TODO|FIXME", r"error", r"^def \w+", r"\bconfig\b")
GLOBS = ("*.py", "**/*.ts", "*.md", "src/**/*.json")
FILE_CONTENTS = (
    "# Notes\n\n- ship the release on Friday\n",
    "print('hello')\n",
    '{\n  "debug": false\n}\n',
)
TABLES = ("orders", "customers", "products", "invoices", "events", "users")
COLUMNS = ("id", "created_at", "status", "email", "total")
SLUG_WORDS = (
    "acme",
    "northwind",
    "blue",
    "orbit",
    "atlas",
    "harbor",
    "lumen",
    "pixel",
    "summit",
    "cedar",
)
THING_WORDS = (
    "web",
    "api",
    "worker",
    "billing",
    "search",
    "auth",
    "payments",
    "reports",
    "frontend",
    "data",
)
PROJECT_NAMES = (
    "Apollo Migration",
    "Website Redesign",
    "Q3 Launch",
    "Data Platform",
    "Mobile App v2",
)
BRANCHES = (
    "main",
    "develop",
    "fix/login-timeout",
    "feature/export-csv",
    "release/2.4",
    "chore/deps",
)
IMAGES = ("nginx:1.25", "redis:7", "postgres:16", "python:3.12-slim", "node:20-alpine")
K8S_KINDS = ("Deployment", "Service", "ConfigMap", "Pod", "Secret", "Ingress")
K8S_RESOURCES = ("pods", "deployments", "services", "configmaps", "nodes")
CLOUD_REGIONS = ("us-east-1", "eu-west-1", "ap-southeast-2", "us-west-2", "eu-central-1")
MIME_TYPES = ("application/json", "text/plain", "image/png", "application/pdf", "text/csv")
HTTP_METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")
ROLES = ("admin", "editor", "viewer", "member", "owner")
JOB_TITLES = (
    "Account Manager",
    "Software Engineer",
    "Head of Operations",
    "Marketing Director",
    "Procurement Lead",
    "Customer Success Manager",
)
PRIORITIES = ("low", "normal", "high", "urgent")
STATUSES = ("open", "pending", "active", "closed")
COLORS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd")
DURATIONS = ("30s", "5m", "1h", "2h30m", "15m")
CRONS = ("0 9 * * 1", "*/15 * * * *", "0 0 * * *", "30 18 * * 5")
VERSIONS = ("1.4.2", "2.0.0", "0.9.1", "3.11.4")
AIRPORTS = (
    "SFO",
    "JFK",
    "LHR",
    "CDG",
    "NRT",
    "SYD",
    "FRA",
    "AMS",
    "YYZ",
    "SIN",
    "DXB",
    "BOS",
    "ORD",
    "SEA",
    "LAX",
    "MAD",
)
CURRENCIES = ("USD", "EUR", "GBP", "JPY", "CAD", "AUD", "CHF", "SEK", "INR", "BRL")
TIMEZONES = (
    "America/New_York",
    "Europe/London",
    "Europe/Berlin",
    "Asia/Tokyo",
    "Australia/Sydney",
    "America/Los_Angeles",
    "UTC",
)
LANGUAGES = ("en", "de", "fr", "es", "ja", "pt", "nl", "sv")
PROGRAMMING_LANGUAGES = ("python", "typescript", "go", "rust", "java")
LOCALES = ("en-US", "en-GB", "de-DE", "fr-FR", "es-ES", "pt-BR", "ja-JP")
COUNTRIES3 = ("USA", "GBR", "DEU", "FRA", "ESP", "MEX", "NLD", "BRA", "IND", "POL", "SWE", "CAN")
DOC_TITLES = (
    "Q3 planning notes",
    "Onboarding checklist",
    "Release notes 2.4",
    "Incident review: checkout outage",
    "Team offsite agenda",
    "API migration plan",
)
THOUGHTS = (
    "First, list what the user asked for and check which parts are already done.",
    "The error suggests the config file is missing; check the path before retrying.",
    "Two options remain; compare their costs before choosing.",
)
QUESTIONS = (
    "What changed in the latest release?",
    "Summarise the open issues by priority.",
    "How do I reset my password?",
    "Which orders shipped last week?",
)
DOC_QUERIES = (
    "how to configure authentication",
    "pagination parameters",
    "rate limits",
    "webhook retries",
    "upgrade guide",
)
THING_SUFFIXES = ("api", "worker", "service", "db", "cache", "gateway", "frontend")
PLACE_QUERIES = (
    "coffee shops near Union Square",
    "pharmacy open now",
    "best ramen in Shibuya",
    "EV charging station",
    "hardware store near me",
    "museums in Lisbon",
)
IMAGE_PROMPTS = (
    "a watercolor lighthouse at dawn",
    "a minimalist logo of a fox, flat colors",
    "a cozy reading nook with a rainy window, warm light",
    "an isometric city block at night",
)
LIBRARIES = ("react", "fastapi", "pandas", "express", "django", "next.js", "tailwindcss")
APP_NAMES = ("Maps", "WhatsApp", "Spotify", "Camera", "Messages", "Gmail")
CSS_SELECTORS = (
    "#submit",
    "button.primary",
    "input[name='email']",
    "a[href='/pricing']",
    ".search-box input",
)
PLAIN_VALUES = ("enabled", "42", "dark", "en-US", "pending", "Hello from the team")
TEAM_NAMES = ("Platform", "Payments", "Mobile", "Data Engineering", "Support Tools")
