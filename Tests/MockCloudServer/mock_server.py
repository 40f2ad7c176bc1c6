#!/usr/bin/env python3
"""A local HTTPS mock of the Gemini API and OpenAI-compatible chat completions, for the
CloudHTTPS tests and bench, the host's CloudRoutingTests and the conformance suite (through
MockServer.swift beside it). Standard library only, plus the `openssl` command to make a CA.

    python3 mock_server.py --workdir DIR

creates DIR/ca.pem (a throw-away CA) and a server certificate for 127.0.0.1, listens on a random
port of 127.0.0.1, prints one JSON line {"port": N, "ca": "DIR/ca.pem"} and serves until its
standard input closes (so it never outlives the test process that started it).

Behaviour is chosen per request by the first path segments: /mock/<scenario>[.<tag>]/<api path>,
e.g. https://127.0.0.1:PORT/mock/ok/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse.
The <tag> keeps per-test state apart (request counters for "fail once, then succeed" scenarios).
GET /__log/<scenario>.<tag> returns the JSON bodies that scenario received (never the headers).
The expected API key comes from the MOCK_API_KEY environment variable, never from argv.
"""
import argparse
import hashlib
import json
import os
import socket
import ssl
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit, parse_qs

EXPECTED_KEY = os.environ.get("MOCK_API_KEY", "")
STATE_LOCK = threading.Lock()
COUNTERS = {}
LOG = {}


def make_certificates(workdir):
    """A CA and a server certificate (SAN 127.0.0.1, localhost) signed by it."""
    ca_key, ca_pem = os.path.join(workdir, "ca.key"), os.path.join(workdir, "ca.pem")
    key, csr, pem = (os.path.join(workdir, n) for n in ("server.key", "server.csr", "server.pem"))
    ext = os.path.join(workdir, "server.ext")
    with open(ext, "w") as f:
        f.write("subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\n"
                "keyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\n")
    quiet = dict(check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                    "-nodes", "-keyout", ca_key, "-out", ca_pem, "-days", "2", "-subj", "/CN=Tandem Test CA",
                    "-addext", "basicConstraints=critical,CA:TRUE",
                    "-addext", "keyUsage=critical,keyCertSign,cRLSign"], **quiet)
    subprocess.run(["openssl", "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                    "-keyout", key, "-out", csr, "-subj", "/CN=127.0.0.1"], **quiet)
    subprocess.run(["openssl", "x509", "-req", "-in", csr, "-CA", ca_pem, "-CAkey", ca_key, "-CAcreateserial",
                    "-out", pem, "-days", "2", "-extfile", ext], **quiet)
    return ca_pem, pem, key


def count_request(token):
    with STATE_LOCK:
        COUNTERS[token] = COUNTERS.get(token, 0) + 1
        return COUNTERS[token]


def fake_vector(text, dims):
    """A deterministic unit-free vector from the text's hash."""
    digest = hashlib.sha256(text.encode()).digest()
    return [round((digest[i % 32] - 128) / 128.0, 6) for i in range(dims)]


def gemini_error(code, status, message, details=None):
    body = {"error": {"code": code, "message": message, "status": status}}
    if details:
        body["error"]["details"] = details
    return body


def openai_error(message, type_, code=None, param=None):
    return {"error": {"message": message, "type": type_, "param": param, "code": code}}


def camel_or_snake(obj, camel, snake):
    return obj.get(camel, obj.get(snake)) if isinstance(obj, dict) else None


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "TandemMock/1"

    def log_message(self, *args):  # quiet: the tests read results, not access logs
        pass

    # ---- plumbing -------------------------------------------------------------------------

    def send_json(self, status, body, headers=None, content_type="application/json; charset=UTF-8"):
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)
        self.wfile.flush()

    def start_stream(self, content_type="text/event-stream"):
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Transfer-Encoding", "chunked")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True

    def chunk(self, data):
        if isinstance(data, str):
            data = data.encode()
        self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
        self.wfile.flush()

    def end_stream(self):
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()

    def cut_connection(self):
        """Drops the connection in the middle of a chunked body."""
        self.wfile.flush()
        try:
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.close_connection = True

    def read_body(self):
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            return json.loads(raw) if raw else None
        except ValueError:
            return None

    def route(self):
        parts = urlsplit(self.path)
        segments = parts.path.split("/")
        if len(segments) < 3 or segments[1] != "mock":
            return None, None, None, parts
        token = segments[2]
        scenario = token.split(".", 1)[0]
        api_path = "/" + "/".join(segments[3:])
        return token, scenario, api_path, parts

    # ---- entry points ---------------------------------------------------------------------

    def do_GET(self):
        if self.path.startswith("/__log/"):
            with STATE_LOCK:
                entries = LOG.get(self.path[len("/__log/"):], [])
            return self.send_json(200, entries)
        token, scenario, api_path, parts = self.route()
        if token is None:
            return self.send_json(404, gemini_error(404, "NOT_FOUND", "unknown path"))
        if api_path.startswith("/v1beta/models"):
            if not self.gemini_authorized(parts):
                return
            return self.send_json(200, {"models": [
                {"name": "models/gemini-2.5-flash", "version": "001", "displayName": "Gemini 2.5 Flash",
                 "supportedGenerationMethods": ["generateContent", "countTokens"]},
                {"name": "models/gemini-embedding-001", "version": "001",
                 "supportedGenerationMethods": ["embedContent"]}]})
        if api_path == "/v1/models":
            if not self.openai_authorized(scenario):
                return
            return self.send_json(200, {"object": "list", "data": [
                {"id": "gpt-4o-mini", "object": "model", "created": 1700000000, "owned_by": "mock"},
                {"id": "text-embedding-3-small", "object": "model", "created": 1700000000, "owned_by": "mock"}]})
        self.send_json(404, gemini_error(404, "NOT_FOUND", "unknown path"))

    def do_POST(self):
        token, scenario, api_path, parts = self.route()
        if scenario == "close-early":  # hang up before reading the upload
            return self.cut_connection()
        body = self.read_body()
        if token is None:
            return self.send_json(404, gemini_error(404, "NOT_FOUND", "unknown path"))
        with STATE_LOCK:
            LOG.setdefault(token, []).append({"path": api_path, "query": parts.query, "body": body})
        attempt = count_request(token)
        try:
            if api_path.startswith("/v1beta/models/"):
                self.gemini(scenario, attempt, api_path, parts, body)
            elif api_path == "/v1/chat/completions":
                self.openai_chat(scenario, attempt, body)
            elif api_path == "/v1/embeddings":
                self.openai_embeddings(scenario, body)
            else:
                self.send_json(404, gemini_error(404, "NOT_FOUND", "unknown path " + api_path))
        except (BrokenPipeError, ConnectionResetError):
            pass

    # ---- shared scenarios -----------------------------------------------------------------

    def common_failure(self, scenario, attempt, dialect):
        """Scenarios that look the same whatever the request. Returns True when it answered."""
        if scenario == "slow":  # nothing at all for a while
            time.sleep(3)
        if scenario == "hang":
            time.sleep(30)
            return True
        if scenario == "close":  # accept, read, then close without a byte
            self.cut_connection()
            return True
        # 5xx with Retry-After: "retry-after-<N>" says N seconds, "retry-date-<N>" an HTTP-date N
        # seconds ahead; "-then-ok" answers the second attempt normally.
        retry_after = None
        if scenario.startswith(("retry-after-", "retry-date-")):
            name, _, rest = scenario.partition("-then-")
            if rest == "ok" and attempt > 1:
                return False
            seconds = int(name.rsplit("-", 1)[1])
            if name.startswith("retry-after-"):
                retry_after = str(seconds)
            else:
                retry_after = time.strftime("%a, %d %b %Y %H:%M:%S GMT", time.gmtime(time.time() + seconds))
        if retry_after is not None or scenario in ("unavailable", "internal", "timeout504") or (scenario == "flaky" and attempt == 1):
            code = 503 if retry_after is not None else {"unavailable": 503, "flaky": 503, "internal": 500, "timeout504": 504}[scenario]
            headers = {"Retry-After": retry_after} if retry_after is not None else None
            if dialect == "gemini":
                status = {503: "UNAVAILABLE", 500: "INTERNAL", 504: "DEADLINE_EXCEEDED"}[code]
                self.send_json(code, gemini_error(code, status, "The model is overloaded. Please try again later."), headers)
            else:
                self.send_json(code, openai_error("The server is overloaded.", "service_unavailable_error",
                                                  "server_is_overloaded"), headers)
            return True
        if scenario == "echo-key":  # a careless server quoting the credential it received
            key = self.headers.get("x-goog-api-key") or self.headers.get("Authorization", "")
            if dialect == "gemini":
                self.send_json(400, gemini_error(400, "INVALID_ARGUMENT", "cannot use key " + key + " here"))
            else:
                self.send_json(400, openai_error("cannot use key " + key + " here", "invalid_request_error"))
            return True
        if scenario == "html":
            self.send_json(200, b"<html><body>captive portal</body></html>", content_type="text/html")
            return True
        if scenario == "html-stream":  # a proxy's sign-in page, labelled as an event stream
            self.send_json(200, b"<!DOCTYPE html>\n<html><body>\n<h1>Sign in to the network</h1>\n</body></html>\n",
                           content_type="text/event-stream")
            return True
        if scenario == "notjson":
            self.send_json(502, b"<html>Bad gateway</html>", content_type="text/html")
            return True
        return False

    # ---- Gemini ---------------------------------------------------------------------------

    def gemini_authorized(self, parts):
        key = self.headers.get("x-goog-api-key") or parse_qs(parts.query).get("key", [None])[0]
        if not key:
            self.send_json(403, gemini_error(403, "PERMISSION_DENIED",
                                             "Method doesn't allow unregistered callers (callers without "
                                             "established identity). Please use API Key or other form of API "
                                             "consumer identity to call this API."))
            return False
        if key != EXPECTED_KEY:
            self.send_json(400, gemini_error(400, "INVALID_ARGUMENT", "API key not valid. Please pass a valid API key.",
                                             [{"@type": "type.googleapis.com/google.rpc.ErrorInfo",
                                               "reason": "API_KEY_INVALID", "domain": "googleapis.com"}]))
            return False
        return True

    def gemini(self, scenario, attempt, api_path, parts, body):
        if not self.gemini_authorized(parts):
            return
        model, _, method = api_path[len("/v1beta/models/"):].partition(":")
        if scenario == "notfound" or model == "gemini-missing":
            return self.send_json(404, gemini_error(404, "NOT_FOUND",
                                                    f"models/{model} is not found for API version v1beta, or is not "
                                                    "supported for generateContent."))
        if self.common_failure(scenario, attempt, "gemini"):
            return
        if method == "countTokens":
            request = body.get("generateContentRequest", body)
            words = sum(len(p.get("text", "").split()) for c in request.get("contents", []) for p in c.get("parts", []))
            return self.send_json(200, {"totalTokens": words, "promptTokensDetails": [{"modality": "TEXT", "tokenCount": words}]})
        if method in ("batchEmbedContents", "embedContent"):
            requests = body.get("requests", [body])
            vectors = []
            for r in requests:
                dims = camel_or_snake(r, "outputDimensionality", "output_dimensionality") or 3072
                text = " ".join(p.get("text", "") for p in r["content"]["parts"])
                vectors.append({"values": fake_vector(text, dims)})
            return self.send_json(200, {"embeddings": vectors} if method == "batchEmbedContents" else {"embedding": vectors[0]})
        if scenario in ("ratelimit", "ratelimit-long", "ratelimit-6s", "perday") or (scenario == "ratelimit-then-ok" and attempt == 1):
            delay = {"ratelimit-long": "120s", "ratelimit-6s": "6s"}.get(scenario, "0.2s")
            quota_id = "GenerateRequestsPerDayPerProjectPerModel" if scenario == "perday" else "GenerateRequestsPerMinutePerProjectPerModel"
            return self.send_json(429, gemini_error(429, "RESOURCE_EXHAUSTED", "Resource has been exhausted (e.g. check quota).", [
                {"@type": "type.googleapis.com/google.rpc.QuotaFailure",
                 "violations": [{"quotaMetric": "generativelanguage.googleapis.com/generate_content_requests",
                                 "quotaId": quota_id, "quotaValue": "10"}]},
                {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": delay}]))
        if scenario == "badrequest":
            return self.send_json(400, gemini_error(400, "INVALID_ARGUMENT", "Invalid JSON payload received."))
        problem = self.gemini_validate(model, body)
        if problem:
            return self.send_json(400, gemini_error(400, "INVALID_ARGUMENT", problem))
        chunks = self.gemini_chunks(scenario, model, body)
        if method == "generateContent":
            return self.gemini_whole(scenario, chunks)
        if method != "streamGenerateContent" or parse_qs(parts.query).get("alt") != ["sse"]:
            return self.send_json(400, gemini_error(400, "INVALID_ARGUMENT", "expected :streamGenerateContent?alt=sse"))
        self.gemini_stream(scenario, chunks, body)

    @staticmethod
    def gemini_validate(model, body):
        """The checks the real server makes (thinking, signatures, required fields)."""
        if not isinstance(body, dict) or not body.get("contents"):
            return "contents is required"
        config = camel_or_snake(body, "generationConfig", "generation_config") or {}
        thinking = camel_or_snake(config, "thinkingConfig", "thinking_config") or {}
        level = camel_or_snake(thinking, "thinkingLevel", "thinking_level")
        budget = camel_or_snake(thinking, "thinkingBudget", "thinking_budget")
        if level is not None and budget is not None:
            return "thinking_level and thinking_budget cannot both be set"
        if level is not None and model.startswith("gemini-2.5"):
            return "Thinking level is not supported for this model."
        if camel_or_snake(config, "responseJsonSchema", "response_json_schema") is not None and \
                camel_or_snake(config, "responseMimeType", "response_mime_type") != "application/json":
            return "responseJsonSchema requires responseMimeType application/json"
        if model.startswith("gemini-3"):
            contents = body["contents"]
            for content in contents:
                if content.get("role") != "model":
                    continue
                calls = [p for p in content.get("parts", []) if "functionCall" in p or "function_call" in p]
                if calls and not camel_or_snake(calls[0], "thoughtSignature", "thought_signature"):
                    return "Function call is missing a thought_signature in functionCall parts."
        return None

    @staticmethod
    def last_user_text(body):
        for content in reversed(body.get("contents", [])):
            for part in content.get("parts", []):
                if "text" in part:
                    return part["text"]
        return ""

    def gemini_chunks(self, scenario, model, body):
        """The GenerateContentResponse chunks of one answer (without usage/modelVersion)."""
        def text_chunk(text, finish=None, thought=False, signature=None):
            part = {"text": text}
            if thought:
                part["thought"] = True
            if signature:
                part["thoughtSignature"] = signature
            candidate = {"content": {"role": "model", "parts": [part]}, "index": 0}
            if finish:
                candidate["finishReason"] = finish
            return {"candidates": [candidate]}

        config = camel_or_snake(body, "generationConfig", "generation_config") or {}
        if scenario == "blocked":
            return [{"promptFeedback": {"blockReason": "SAFETY", "safetyRatings": [
                {"category": "HARM_CATEGORY_DANGEROUS_CONTENT", "probability": "HIGH", "blocked": True}]}}]
        if scenario == "safety":
            return [text_chunk("Here is how"), {"candidates": [{"content": {"role": "model"}, "finishReason": "SAFETY",
                                                                "index": 0}]}]
        if scenario == "maxtokens":
            return [text_chunk("The beginning of a long"), text_chunk(" answer", finish="MAX_TOKENS")]
        if scenario == "thoughts":
            return [text_chunk("Let me think about the question.", thought=True),
                    text_chunk("Paris is the capital"), text_chunk(" of France.", finish="STOP", signature="dGhvdWdodC1zaWc=")]
        if scenario == "tools":
            contents = body.get("contents", [])
            last = contents[-1]["parts"] if contents else []
            answered = [p for p in last if "functionResponse" in p or "function_response" in p]
            if answered:
                outputs = ", ".join(json.dumps(camel_or_snake(p, "functionResponse", "function_response")["response"],
                                               sort_keys=True) for p in answered)
                return [text_chunk("Tool results: " + outputs, finish="STOP")]
            return [{"candidates": [{"content": {"role": "model", "parts": [
                {"functionCall": {"name": "get_weather", "args": {"city": "Paris", "days": 2}},
                 "thoughtSignature": "c2lnbmF0dXJlLW9uZQ=="},
                {"functionCall": {"name": "get_time", "args": {"zone": "Europe/Paris"}}}]},
                "finishReason": "STOP", "index": 0}]}]
        if scenario == "json":
            return [text_chunk('{"city": "Paris",'), text_chunk(' "population": 2102650}', finish="STOP")]
        if scenario == "bench":
            count = int(config.get("maxOutputTokens", 100))
            return [None] * count  # filled in at send time with timestamps
        if scenario in ("cut", "cut-clean", "stall"):
            return [text_chunk("First part,"), text_chunk(" second part,"), text_chunk(" last part.", finish="STOP")]
        text = "Echo: " + self.last_user_text(body)
        third = max(1, len(text) // 3)
        pieces = [text[:third], text[third:2 * third], text[2 * third:]]
        # Each piece stands for a token: maxOutputTokens cuts the answer short.
        limit = config.get("maxOutputTokens") or config.get("max_output_tokens")
        finish = "STOP"
        if limit is not None and int(limit) < len(pieces):
            pieces, finish = pieces[:int(limit)], "MAX_TOKENS"
        return [text_chunk(p, finish=finish if i == len(pieces) - 1 else None) for i, p in enumerate(pieces)]

    @staticmethod
    def gemini_decorate(chunk, model, index, total):
        chunk = dict(chunk)
        usage = {"promptTokenCount": 7, "totalTokenCount": 7}
        if index == total - 1:
            usage.update({"candidatesTokenCount": 5, "totalTokenCount": 12})
            if any(p.get("thought") for c in chunk.get("candidates", []) for p in c.get("content", {}).get("parts", [])):
                pass
        chunk["usageMetadata"] = usage
        chunk["modelVersion"] = model + "-001"
        chunk["responseId"] = "mock-response-1"
        return chunk

    def gemini_whole(self, scenario, chunks):
        if scenario == "garbage":
            return self.send_json(200, b"{\"candidates\": [ this is not json")
        if scenario == "huge":
            return self.send_json(200, b"{\"candidates\": [], \"pad\": \"" + b"x" * (3 << 20) + b"\"}")
        merged_parts, finish, feedback = [], None, None
        for chunk in chunks:
            feedback = chunk.get("promptFeedback", feedback)
            for candidate in chunk.get("candidates", []):
                merged_parts += candidate.get("content", {}).get("parts", [])
                finish = candidate.get("finishReason", finish)
        model = self.path.split("/models/")[1].split(":")[0]
        body = {"usageMetadata": {"promptTokenCount": 7, "candidatesTokenCount": 5, "totalTokenCount": 12},
                "modelVersion": model + "-001", "responseId": "mock-response-1"}
        if feedback:
            body["promptFeedback"] = feedback
        else:
            body["candidates"] = [{"content": {"role": "model", "parts": merged_parts}, "finishReason": finish, "index": 0}]
        self.send_json(200, body)

    def gemini_stream(self, scenario, chunks, body):
        model = self.path.split("/models/")[1].split(":")[0]
        self.start_stream()
        if scenario == "garbage":
            self.chunk("data: {\"candidates\": [ not json\r\n\r\n")
            return self.end_stream()
        if scenario == "huge":
            self.chunk("data: {\"pad\": \"")
            block = "x" * (1 << 20)
            for _ in range(9):
                self.chunk(block)
            self.chunk("\"}\r\n\r\n")
            return self.end_stream()
        if scenario == "stream-error":
            self.chunk("data: " + json.dumps(self.gemini_decorate(chunks[0], model, 0, 3)) + "\r\n\r\n")
            self.chunk(json.dumps(gemini_error(500, "INTERNAL", "An internal error has occurred."), indent=2) + "\n")
            return self.end_stream()
        if scenario == "bench":
            for i in range(len(chunks)):
                chunk = {"candidates": [{"content": {"role": "model", "parts": [{"text": "%d " % time.time_ns()}]},
                                         "index": 0}], "modelVersion": model}
                if i == len(chunks) - 1:
                    chunk["candidates"][0]["finishReason"] = "STOP"
                self.chunk("data: " + json.dumps(chunk) + "\r\n\r\n")
                time.sleep(0.001)
            return self.end_stream()
        total = len(chunks)
        for index, chunk in enumerate(chunks):
            if scenario == "cut-clean":
                chunk = {"candidates": [{"content": c["content"], "index": 0} for c in chunk["candidates"]]}
            self.chunk("data: " + json.dumps(self.gemini_decorate(chunk, model, index, total), separators=(",", ":")) + "\r\n\r\n")
            if scenario == "cut" and index == 0:
                return self.cut_connection()
            if scenario == "stall" and index == 0:
                time.sleep(3)
            if scenario == "hang-stream" and index == 0:
                time.sleep(30)
        self.end_stream()

    # ---- OpenAI ---------------------------------------------------------------------------

    def openai_authorized(self, scenario):
        if scenario == "nokey":
            return True
        auth = self.headers.get("Authorization", "")
        if auth != "Bearer " + EXPECTED_KEY or not EXPECTED_KEY:
            self.send_json(401, openai_error("Incorrect API key provided. You can find your API key at your "
                                             "account page.", "invalid_request_error", "invalid_api_key"))
            return False
        return True

    def openai_chat(self, scenario, attempt, body):
        if not self.openai_authorized(scenario):
            return
        model = (body or {}).get("model", "")
        if scenario == "notfound" or model == "gpt-missing":
            return self.send_json(404, openai_error(f"The model `{model}` does not exist or you do not have access "
                                                    "to it.", "invalid_request_error", "model_not_found"))
        if self.common_failure(scenario, attempt, "openai"):
            return
        if scenario == "ratelimit-then-ok" and attempt == 1 or scenario == "ratelimit":
            return self.send_json(429, openai_error("Rate limit reached for requests", "requests", "rate_limit_exceeded"),
                                  {"retry-after-ms": "200", "retry-after": "1", "x-ratelimit-limit-requests": "60",
                                   "x-ratelimit-remaining-requests": "0", "x-ratelimit-reset-requests": "200ms"})
        if scenario in ("ratelimit-long", "ratelimit-6s"):
            return self.send_json(429, openai_error("Rate limit reached for requests", "requests", "rate_limit_exceeded"),
                                  {"retry-after": "120" if scenario == "ratelimit-long" else "6",
                                   "x-ratelimit-remaining-requests": "0"})
        if scenario == "quota":
            return self.send_json(429, openai_error("You exceeded your current quota, please check your plan and "
                                                    "billing details.", "insufficient_quota", "insufficient_quota"))
        if scenario == "array-error":
            return self.send_json(400, [gemini_error(400, "INVALID_ARGUMENT", "Request contains an invalid argument.")])
        if scenario == "context":
            return self.send_json(400, openai_error("This model's maximum context length is 8192 tokens.",
                                                    "invalid_request_error", "context_length_exceeded", "messages"))
        if not isinstance(body, dict) or not body.get("messages"):
            return self.send_json(400, openai_error("'messages' is a required property", "invalid_request_error",
                                                    None, "messages"))
        deltas, finish = self.openai_answer(scenario, body)
        if not body.get("stream"):
            return self.openai_whole(scenario, body, deltas, finish)
        self.openai_stream(scenario, body, deltas, finish)

    @staticmethod
    def openai_answer(scenario, body):
        """The deltas of one answer and its finish_reason."""
        messages = body["messages"]
        if scenario == "tools":
            if messages[-1].get("role") == "tool":
                outputs = [m["content"] for m in messages if m.get("role") == "tool"]
                return [{"content": "Tool results: " + "; ".join(outputs)}], "stop"
            return [
                {"tool_calls": [{"index": 0, "id": "call_1", "type": "function",
                                 "function": {"name": "get_weather", "arguments": ""}}]},
                {"tool_calls": [{"index": 0, "function": {"arguments": "{\"ci"}}]},
                {"tool_calls": [{"index": 0, "function": {"arguments": "ty\": \"Par"}}]},
                {"tool_calls": [{"index": 1, "id": "call_2", "type": "function",
                                 "function": {"name": "get_time", "arguments": ""}}]},
                {"tool_calls": [{"index": 0, "function": {"arguments": "is\"}"}}]},
                {"tool_calls": [{"index": 1, "function": {"arguments": "{\"zone\": \"CET\"}"}}]},
            ], "tool_calls"
        if scenario == "refusal":
            return [{"refusal": "I'm sorry, "}, {"refusal": "I cannot help with that."}], "stop"
        if scenario == "length":
            return [{"content": "The beginning of a long"}, {"content": " answer"}], "length"
        if scenario == "filter":
            return [{"content": "Partial"}], "content_filter"
        if scenario == "json":
            return [{"content": "{\"city\": \"Paris\","}, {"content": " \"population\": 2102650}"}], "stop"
        if scenario == "bench":
            return [None] * int(body.get("max_completion_tokens") or body.get("max_tokens") or 100), "stop"
        text = "Echo: " + next((m["content"] for m in reversed(messages) if m.get("role") == "user"), "")
        third = max(1, len(text) // 3)
        deltas = [{"content": text[:third]}, {"content": text[third:2 * third]}, {"content": text[2 * third:]}]
        # Each delta stands for a token: the token cap cuts the answer short.
        limit = body.get("max_completion_tokens") or body.get("max_tokens")
        if limit is not None and int(limit) < len(deltas):
            return deltas[:int(limit)], "length"
        return deltas, "stop"

    def openai_whole(self, scenario, body, deltas, finish):
        if scenario == "garbage":
            return self.send_json(200, b"{\"choices\": [ not json")
        message = {"role": "assistant", "content": None, "refusal": None}
        calls = {}
        for d in deltas:
            if "content" in d:
                message["content"] = (message["content"] or "") + d["content"]
            if "refusal" in d:
                message["refusal"] = (message["refusal"] or "") + d["refusal"]
            for c in d.get("tool_calls", []):
                call = calls.setdefault(c["index"], {"id": "", "type": "function", "function": {"name": "", "arguments": ""}})
                call["id"] = c.get("id", call["id"])
                call["function"]["name"] += c.get("function", {}).get("name", "")
                call["function"]["arguments"] += c.get("function", {}).get("arguments", "")
        if calls:
            message["tool_calls"] = [calls[i] for i in sorted(calls)]
        response = {"id": "chatcmpl-mock", "object": "chat.completion", "created": 1700000000,
                    "model": body["model"] + "-2026-01-01", "system_fingerprint": None, "service_tier": "default",
                    "choices": [{"index": 0, "message": message, "logprobs": None, "finish_reason": finish}]}
        if scenario != "nousage":
            response["usage"] = {"prompt_tokens": 9, "completion_tokens": 6, "total_tokens": 15,
                                 "completion_tokens_details": {"reasoning_tokens": 2}}
        self.send_json(200, response)

    def openai_stream(self, scenario, body, deltas, finish):
        served = body["model"] + "-2026-01-01"

        def event(choices, usage=None, extra=None):
            chunk = {"id": "chatcmpl-mock", "object": "chat.completion.chunk", "created": 1700000000, "model": served,
                     "system_fingerprint": None, "choices": choices, "obfuscation": "xYz"}
            chunk["usage"] = usage
            if extra:
                chunk.update(extra)
            return "data: " + json.dumps(chunk) + "\n\n"

        self.start_stream()
        if scenario == "garbage":
            self.chunk("data: {\"choices\": [ not json\n\n")
            return self.end_stream()
        if scenario == "stream-error":
            self.chunk(event([{"index": 0, "delta": {"role": "assistant", "content": "Hel"}, "finish_reason": None}]))
            self.chunk("data: " + json.dumps(openai_error("The server had an error while processing your request.",
                                                          "server_error")) + "\n\n")
            return self.end_stream()
        self.chunk(": keep-alive comment\n\n")
        self.chunk(event([{"index": 0, "delta": {"role": "assistant", "content": ""}, "logprobs": None, "finish_reason": None}]))
        for i, delta in enumerate(deltas):
            if scenario == "bench":
                delta = {"content": "%d " % time.time_ns()}
            self.chunk(event([{"index": 0, "delta": delta, "logprobs": None, "finish_reason": None}]))
            if scenario == "bench":
                time.sleep(0.001)
            if scenario == "cut" and i == 0:
                return self.cut_connection()
            if scenario == "stall" and i == 0:
                time.sleep(3)
            if scenario == "hang-stream" and i == 0:
                time.sleep(30)
        self.chunk(event([{"index": 0, "delta": {}, "logprobs": None, "finish_reason": finish}]))
        include_usage = (body.get("stream_options") or {}).get("include_usage")
        if include_usage and scenario != "nousage":
            self.chunk(event([], usage={"prompt_tokens": 9, "completion_tokens": 6, "total_tokens": 15,
                                        "completion_tokens_details": {"reasoning_tokens": 2}}))
        if scenario == "cut-clean":
            return self.end_stream()  # a clean close, but no [DONE]
        self.chunk("data: [DONE]\n\n")
        self.end_stream()

    def openai_embeddings(self, scenario, body):
        if not self.openai_authorized(scenario):
            return
        inputs = body.get("input")
        inputs = [inputs] if isinstance(inputs, str) else inputs
        if not inputs or any(not isinstance(i, str) or not i for i in inputs):
            return self.send_json(400, openai_error("'input' must be non-empty strings", "invalid_request_error",
                                                    None, "input"))
        dims = body.get("dimensions") or 1536
        data = [{"object": "embedding", "index": i, "embedding": fake_vector(text, dims)} for i, text in enumerate(inputs)]
        data.reverse()  # order by `index`, not by position: clients must not rely on position
        self.send_json(200, {"object": "list", "data": data, "model": body.get("model"),
                             "usage": {"prompt_tokens": len(inputs), "total_tokens": len(inputs)}})


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--workdir", required=True)
    parser.add_argument("--until-killed", action="store_true",
                        help="keep serving after standard input closes (for manual runs)")
    args = parser.parse_args()
    ca_pem, cert, key = make_certificates(args.workdir)
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print(json.dumps({"port": server.server_address[1], "ca": ca_pem}), flush=True)
    if args.until_killed:
        threading.Event().wait()
    sys.stdin.read()  # returns at EOF: the parent is gone or done
    os._exit(0)


if __name__ == "__main__":
    main()
